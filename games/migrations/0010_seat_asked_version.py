from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def ask_at_current_version(apps, schema_editor):
    # A game in play when this arrives: every seat's question counts as asked at the game's
    # version, so a move posted from an older board is refused as before (never made twice).
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    version = Game.objects.filter(pk=OuterRef("game_id")).values("version")[:1]
    Seat.objects.filter(game__status="active").update(asked_version=Subquery(version))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_page_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="asked_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(ask_at_current_version, migrations.RunPython.noop),
    ]
