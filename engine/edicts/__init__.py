"""The edicts: one module per edict (see `engine.powers.base.Edict`)."""
