"""A seat keeps its game's end (finished games only): a player's history is read from one index.

The lists of a player's finished games (home, your turn, profile, finished
games) sort by the game's end. Read through the game, that sorted every game
of the player on each request; the seat index (user, ended_at, game) gives
them in order, newest first, whatever the length of the history. Everyone's
finished games (/games/recent/) are read from (status, ended_at, id) likewise.
"""

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_ends(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    ended = Game.objects.filter(pk=OuterRef("game_id")).values("ended_at")[:1]
    Seat.objects.filter(game__status="finished").update(ended_at=Subquery(ended))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_analysis"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(copy_ends, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "ended_at", "game"], name="seat_history"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["status", "ended_at", "id"], name="game_end_order"),
        ),
    ]
