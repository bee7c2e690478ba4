"""The games two players finished together, both ways, read newest first down one index.

GameTogether rows for the games finished before (then written by record_result).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    GameTogether = apps.get_model("accounts", "GameTogether")
    games = {}
    seats = Seat.objects.filter(game__status="finished").order_by("game_id", "position")
    for game_id, user_id, ended_at in seats.values_list(
        "game_id", "user_id", "game__ended_at"
    ).iterator():
        games.setdefault(game_id, (ended_at, []))[1].append(user_id)
    GameTogether.objects.bulk_create(
        (
            GameTogether(
                user_id=user_id, opponent_id=opponent_id, game_id=game_id, ended_at=ended_at
            )
            for game_id, (ended_at, users) in games.items()
            for user_id in users
            for opponent_id in users
            if user_id != opponent_id and ended_at is not None
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_page_aggregates"),
        ("games", "0009_page_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameTogether",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ended_at", models.DateTimeField()),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.game",
                    ),
                ),
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
                "indexes": [
                    models.Index(
                        fields=["user", "opponent", "ended_at", "game"], name="together_history"
                    )
                ],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
