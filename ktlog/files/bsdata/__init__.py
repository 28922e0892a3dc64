"""Reading kill teams from the community roster data: BattleScribe rosters (`.ros`, `.rosz`), New
Recruit JSON exports, and BSData catalogues with their game system (`.cat`/`.catz` with
`.gst`/`.gstz`), mapped to ktlog's roster format.

    documents   a file -> an XML element tree (zip, size limit, no entities, JSON as the same tree)
    teams       what was read: a kill team's operatives as profiles, categories and notes
    rosters     a roster export -> a team (the operatives the player chose)
    catalogues  a catalogue and its game system -> a team (every operative type, every weapon option)
    mapping     a team -> ktlog roster data (datacards), with what could not be mapped
    toml_out    ktlog roster data -> a TOML roster file, written atomically

ktlog ships this importer, never the data: the user brings their own files.
"""
