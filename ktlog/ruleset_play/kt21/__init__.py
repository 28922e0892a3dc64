"""Kill Team 2021's simulator and its own kinds of move: Normal Move, Pass, Overwatch, mission VP (`ktlog.ruleset_play`)."""
