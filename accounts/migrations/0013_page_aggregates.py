"""What the profile and the leaderboard read without going over a player's whole history.

- HeadToHead: two players' record in the games they finished together, both
  ways, counted from the games finished before (then by record_result).
- Indexes for the profile's best and worst game (one step down (user, delta),
  not a sort) and the leaderboard (an edition's ratings best first).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def count_pairs(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    HeadToHead = apps.get_model("accounts", "HeadToHead")
    games = {}
    seats = Seat.objects.filter(game__status="finished").order_by("game_id", "position")
    for game_id, user_id, winner_id in seats.values_list(
        "game_id", "user_id", "game__winner_id"
    ).iterator():
        games.setdefault(game_id, (winner_id, []))[1].append(user_id)
    totals = {}
    for winner_id, users in games.values():
        for user_id in users:
            for opponent_id in users:
                if user_id != opponent_id:
                    record = totals.setdefault((user_id, opponent_id), [0, 0, 0])
                    record[0] += 1
                    record[1] += user_id == winner_id
                    record[2] += opponent_id == winner_id
    HeadToHead.objects.bulk_create(
        (
            HeadToHead(user_id=user_id, opponent_id=opponent_id, games=g, won=w, lost=lost)
            for (user_id, opponent_id), (g, w, lost) in totals.items()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0012_bot_ladder"),
        ("games", "0009_page_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="HeadToHead",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("games", models.PositiveIntegerField(default=0)),
                ("won", models.PositiveIntegerField(default=0)),
                ("lost", models.PositiveIntegerField(default=0)),
                (
                    "opponent",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("user", "opponent"), name="one_record_per_pair")
                ],
            },
        ),
        migrations.RunPython(count_pairs, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["edition", "ordinal"], name="rating_leaderboard"),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["user", "delta"], name="rating_best_worst"),
        ),
    ]
