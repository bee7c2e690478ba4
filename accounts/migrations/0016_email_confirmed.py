"""Email addresses are confirmed before the site writes to them about games (accounts/email/confirm.py).

The accounts made before count as confirmed: they were getting those emails
already, and nothing would tell their owners to confirm.
"""

from django.db import migrations, models


def confirm_the_addresses_in_use(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.exclude(email="").update(email_confirmed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0015_deal_breaker_help"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_confirmed",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(confirm_the_addresses_in_use, migrations.RunPython.noop),
    ]
