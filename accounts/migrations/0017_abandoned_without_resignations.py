"""Resignations no longer count as games abandoned (accounts.stats.record_result).

A player who resigned is marked absent too, and the totals counted before
this counted those games as abandoned as well as lost. Take them back out:
a finished game's seat marked absent whose player resigned it (a resign
move of their own, not one made for them as absent) is a loss only.
"""

from collections import Counter

from django.db import migrations
from django.db.models import F, Value
from django.db.models.functions import Greatest


def recount(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    PlayerStats = apps.get_model("accounts", "PlayerStats")
    resigned = Move.objects.filter(
        move__kind="resign", cause="", game__status="finished"
    ).values_list("game_id", "seat")
    abandoned = Counter()
    for game_id, position in resigned.iterator():
        absent = Seat.objects.filter(game_id=game_id, position=position, absent=True)
        for user_id in absent.values_list("user_id", flat=True):
            abandoned[user_id] += 1
    for user_id, count in abandoned.items():
        PlayerStats.objects.filter(user_id=user_id).update(
            abandoned=Greatest(F("abandoned") - count, Value(0))
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0016_email_confirmed"),
        ("games", "0012_paused_turn_clock"),
    ]

    operations = [migrations.RunPython(recount, migrations.RunPython.noop)]
