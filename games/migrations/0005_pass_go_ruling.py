"""Games begun before the Pass Go ruling (docs/rules.md section 7) keep the rule they began under.

Before it, a Pass Go went to the discard pile before its 2 cards were drawn,
so with fewer than 2 cards left to draw it could be shuffled back and drawn.
A game's move log replays exactly only under the rule it was played with,
and its review and checkpoints are built by replaying it; so every game
already dealt (in play or ended) gets the legacy option in its options, its
snapshot and its review checkpoints. Tables not yet dealt start under the
ruling.
"""

from django.db import migrations

LEGACY = "pass_go_discards_first"


def keep_the_old_rule(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Checkpoint = apps.get_model("games", "Checkpoint")
    dealt = Game.objects.filter(snapshot__isnull=False).only("options", "snapshot")
    for game in dealt.iterator():
        game.options = {**(game.options or {}), LEGACY: True}
        game.snapshot["options"] = {**game.snapshot.get("options", {}), LEGACY: True}
        game.save(update_fields=["options", "snapshot"])
    for checkpoint in Checkpoint.objects.only("state").iterator():
        checkpoint.state["options"] = {**checkpoint.state.get("options", {}), LEGACY: True}
        checkpoint.save(update_fields=["state"])


def forget_the_old_rule(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Checkpoint = apps.get_model("games", "Checkpoint")
    for game in Game.objects.filter(snapshot__isnull=False).only("options", "snapshot").iterator():
        game.options.pop(LEGACY, None)
        game.snapshot.get("options", {}).pop(LEGACY, None)
        game.save(update_fields=["options", "snapshot"])
    for checkpoint in Checkpoint.objects.only("state").iterator():
        checkpoint.state.get("options", {}).pop(LEGACY, None)
        checkpoint.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_rematch"),
    ]

    operations = [migrations.RunPython(keep_the_old_rule, forget_the_old_rule)]
