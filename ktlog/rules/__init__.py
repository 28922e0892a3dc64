"""The core rules (KT24's, which the other rulesets adapt): one module per concern, each event's
handler registered with `context.handles`; `ruleset.Ruleset` is what a ruleset fills in."""
