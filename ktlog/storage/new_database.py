"""A new database's tables, as the SQL the migrations leave (`migrations.py`: a test compares
the two), so a new file is made in one transaction without importing sqlite-utils or running
the migrations one by one (about 0.16 s of CPU, a tenth of importing 200 games into a new file).
Used only while VERSION is the schema version: a new migration makes it stale, and new files
are then made by the migrations until `make new-database` writes it again."""

VERSION = 20
"""The schema version these statements make."""
MIGRATIONS = (
    "m001_initial",
    "m002_dice_figures_and_crit_op",
    "m003_verifications",
    "m004_meta",
    "m005_game_keys",
    "m006_elimination_and_mission_vp",
    "m007_vp_by_op_and_typed_results",
    "m008_snapshot_seals",
    "m009_pve",
    "m010_simulated",
    "m011_lean_log",
    "m012_keyring",
    "m013_seats",
    "m014_rules_checked",
    "m017_player_identities",
    "m018_tournaments",
    "m020_lean_snapshots",
)
"""The migrations a database made by SCHEMA counts as applied (sqlite-utils' `_sqlite_migrations`)."""
SCHEMA = (
    'CREATE TABLE "_sqlite_migrations" (\n   "id" INTEGER PRIMARY KEY,\n   "migration_set" TEXT,\n   "name" TEXT,\n   "applied_at" TEXT\n)',
    'CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"\n    ON "_sqlite_migrations" ("migration_set", "name")',
    'CREATE TABLE "vp_changes" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "turning_point" INTEGER,\n   "player" TEXT,\n   "op" TEXT,\n   "vp" INTEGER,\n   "reason" TEXT\n, "game_key" INTEGER)',
    'CREATE INDEX "idx_vp_changes_game_id_seq"\n    ON "vp_changes" ("game_id", "seq")',
    'CREATE TABLE "cp_changes" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "turning_point" INTEGER,\n   "player" TEXT,\n   "delta" INTEGER,\n   "kind" TEXT,\n   "source" TEXT\n, "game_key" INTEGER)',
    'CREATE INDEX "idx_cp_changes_game_id_seq"\n    ON "cp_changes" ("game_id", "seq")',
    'CREATE TABLE "attacks" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "turning_point" INTEGER,\n   "kind" TEXT,\n   "retaliation" INTEGER,\n   "mode" TEXT,\n   "player" TEXT,\n   "operative" TEXT,\n   "weapon" TEXT,\n   "target_player" TEXT,\n   "target" TEXT,\n   "attack_dice" INTEGER,\n   "hit" INTEGER,\n   "normal_hits" INTEGER,\n   "critical_hits" INTEGER,\n   "defence_dice" INTEGER,\n   "save" INTEGER,\n   "normal_saves" INTEGER,\n   "critical_saves" INTEGER,\n   "damage" INTEGER,\n   "incapacitated" INTEGER\n, "crit_on" INTEGER, "rolled_successes" INTEGER, "rolled_criticals" INTEGER, "rolled_saves" INTEGER, "rolled_critical_saves" INTEGER, "expected_damage" REAL, "game_key" INTEGER)',
    'CREATE INDEX "idx_attacks_game_id_seq"\n    ON "attacks" ("game_id", "seq")',
    'CREATE TABLE "incapacitations" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "turning_point" INTEGER,\n   "player" TEXT,\n   "operative" TEXT,\n   "by_player" TEXT,\n   "by_operative" TEXT,\n   "source" TEXT\n, "game_key" INTEGER)',
    'CREATE INDEX "idx_incapacitations_game_id_seq"\n    ON "incapacitations" ("game_id", "seq")',
    'CREATE TABLE "turning_points" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "turning_point" INTEGER,\n   "initiative" TEXT\n, "game_key" INTEGER)',
    'CREATE INDEX "idx_turning_points_game_id_seq"\n    ON "turning_points" ("game_id", "seq")',
    'CREATE TABLE "verifications" (\n   "game_id" TEXT PRIMARY KEY,\n   "checked_at" TEXT,\n   "head_seq" INTEGER,\n   "ok" INTEGER,\n   "bad_seq" INTEGER,\n   "problem" TEXT\n)',
    'CREATE TABLE "meta" (\n   "key" TEXT PRIMARY KEY,\n   "value" TEXT\n)',
    'CREATE TABLE "vp_by_op" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "player" TEXT,\n   "op" TEXT,\n   "vp" INTEGER,\n   "game_key" INTEGER\n)',
    'CREATE INDEX "idx_vp_by_op_game_id_seq"\n    ON "vp_by_op" ("game_id", "seq")',
    'CREATE TABLE "game_results" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n   "player" TEXT,\n   "kill_team" TEXT,\n   "opponents" TEXT,\n   "result" TEXT,\n   "ended_by" TEXT,\n   "vp_total" INTEGER,\n   "kill_grade" INTEGER,\n   "cp_left" INTEGER,\n   "ruleset" TEXT,\n   "date" TEXT,\n   "league" TEXT,\n   "season" TEXT,\n   "round" TEXT,\n   "table_label" TEXT,\n   "crit_op" TEXT,\n   "killzone" TEXT,\n   "game_key" INTEGER\n)',
    'CREATE INDEX "idx_game_results_game_id_seq"\n    ON "game_results" ("game_id", "seq")',
    'CREATE TABLE "signatures" (\n   "game_id" TEXT,\n   "head_seq" INTEGER,\n   "signer" TEXT,\n   "public_key" TEXT,\n   "signature" TEXT,\n   "recorded_at" TEXT,\n   PRIMARY KEY ("game_id", "head_seq", "public_key")\n)',
    'CREATE TABLE "games" (\n   "game_key" INTEGER PRIMARY KEY,\n   "id" TEXT NOT NULL,\n   "created_at" TEXT,\n   "updated_at" TEXT,\n   "ruleset" TEXT NOT NULL,\n   "killzone" TEXT,\n   "date" TEXT,\n   "mission" TEXT,\n   "league" TEXT,\n   "season" TEXT,\n   "round" TEXT,\n   "table_label" TEXT,\n   "players" TEXT,\n   "kill_teams" TEXT,\n   "status" TEXT NOT NULL,\n   "result" TEXT,\n   "head_seq" INTEGER NOT NULL,\n   "head_hash" TEXT NOT NULL,\n   "winner" TEXT,\n   "draw" INTEGER,\n   "ended_by" TEXT,\n   "conceded_by" TEXT,\n   "pve" INTEGER,\n   "simulated" INTEGER\n, "disputes" INTEGER)',
    "CREATE UNIQUE INDEX idx_games_id ON games (id)",
    "CREATE TABLE events (\n            position INTEGER PRIMARY KEY,\n            game_key INTEGER NOT NULL REFERENCES games (game_key),\n            seq INTEGER NOT NULL,\n            event_id BLOB NOT NULL,\n            type TEXT NOT NULL,\n            version INTEGER NOT NULL,\n            recorded_at TEXT NOT NULL,\n            payload TEXT NOT NULL,\n            hash BLOB NOT NULL,\n            game_id TEXT CHECK ((seq = 1) = (game_id IS NOT NULL))\n        )",
    'CREATE TABLE "snapshots" (\n   "game_key" INTEGER,\n   "seq" INTEGER,\n   "state" BLOB,\n   "seal" BLOB,\n   PRIMARY KEY ("game_key", "seq")\n)',
    "CREATE UNIQUE INDEX idx_events_game_key_seq ON events (game_key, seq)",
    "CREATE UNIQUE INDEX idx_events_event_id ON events (event_id)",
    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction (undo) instead'); END",
    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction (undo) instead'); END",
    "CREATE INDEX idx_events_rewinds ON events (game_key, seq) WHERE type IN ('EventVoided', 'EventCorrected')",
    'CREATE TABLE "keyring" (\n   "public_key" TEXT PRIMARY KEY,\n   "name" TEXT NOT NULL,\n   "how" TEXT NOT NULL,\n   "pinned_at" TEXT NOT NULL,\n   "revoked_at" TEXT\n)',
    'CREATE INDEX "idx_keyring_name"\n    ON "keyring" ("name")',
    'CREATE TABLE "seats" (\n   "game_id" TEXT,\n   "player" TEXT,\n   "token_hash" TEXT,\n   "issued_at" TEXT,\n   "revoked_at" TEXT,\n   "public_key" TEXT,\n   PRIMARY KEY ("game_id", "player")\n)',
    "CREATE UNIQUE INDEX idx_seats_token_hash ON seats (token_hash)",
    'CREATE TABLE "game_origins" (\n   "game_id" TEXT PRIMARY KEY,\n   "database_id" TEXT NOT NULL,\n   "label" TEXT NOT NULL\n)',
    'CREATE TABLE "player_aliases" (\n   "database_id" TEXT,\n   "name" TEXT,\n   "player_id" TEXT NOT NULL,\n   PRIMARY KEY ("database_id", "name")\n)',
    'CREATE INDEX "idx_player_aliases_player_id"\n    ON "player_aliases" ("player_id")',
    'CREATE TABLE "player_names" (\n   "player_id" TEXT PRIMARY KEY,\n   "name" TEXT NOT NULL,\n   "changed_at" TEXT NOT NULL\n)',
    'CREATE TABLE "tournaments" (\n   "name" TEXT PRIMARY KEY,\n   "created_at" TEXT NOT NULL,\n   "rounds" INTEGER NOT NULL,\n   "ruleset" TEXT,\n   "tie_breakers" TEXT,\n   "seed" INTEGER\n)',
    'CREATE TABLE "tournament_players" (\n   "tournament" TEXT,\n   "player" TEXT,\n   "added_at" TEXT,\n   PRIMARY KEY ("tournament", "player")\n)',
    'CREATE TABLE "tournament_tables" (\n   "tournament" TEXT,\n   "round" INTEGER,\n   "table_no" INTEGER,\n   "player_a" TEXT NOT NULL,\n   "player_b" TEXT,\n   "game_id" TEXT,\n   "no_show" TEXT,\n   "paired_at" TEXT NOT NULL,\n   PRIMARY KEY ("tournament", "round", "table_no")\n)',
    "CREATE UNIQUE INDEX idx_tournament_tables_game_id ON tournament_tables (game_id) WHERE game_id IS NOT NULL",
)
"""CREATE statements in the order SQLite lists them (tables before their indexes and triggers)."""
