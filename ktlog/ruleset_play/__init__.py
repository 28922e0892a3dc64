"""Each ruleset's own play, at the application layer (above `ktlog.play`, whose builder and
questions it uses): one package per ruleset with its `simulator.py` (`ktlog simulate`) and,
for a ruleset with kinds of move of its own, `moves.py` (their candidates and questions). A
ruleset names them (`Ruleset.simulator`, `Ruleset.moves`) and they are loaded by that name;
`kt24` holds the simulator the KT24 rulesets share. A plug-in ruleset keeps its own in its package."""
