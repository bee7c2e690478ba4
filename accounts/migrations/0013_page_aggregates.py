"""Indexes for the profile's best and worst game (one step down (user, delta), not a sort) and
the leaderboard (an edition's ratings best first)."""

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
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["edition", "ordinal"], name="rating_leaderboard"),
        ),
    ]
