from django.db import migrations, models


def ask_at_current_version(apps, schema_editor):
    # A game in play when this arrives: every seat's question counts as asked at the game's
    # version, so a move posted from an older board is refused as before (never made twice).
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(status="active").only("version", "seat_count"):
        game.asked_versions = [game.version] * game.seat_count
        game.save(update_fields=["asked_versions"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_page_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="asked_versions",
            field=models.JSONField(default=list, editable=False),
        ),
        migrations.RunPython(ask_at_current_version, migrations.RunPython.noop),
    ]
