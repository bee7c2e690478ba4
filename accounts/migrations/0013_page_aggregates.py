"""An index for the profile's best and worst game: one step down (user, delta), not a sort."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_standing_answers"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["user", "delta"], name="rating_best_worst"),
        ),
    ]
