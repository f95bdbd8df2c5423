"""The alien powers: one module per power, each with its Wild and Super flare (see `base`)."""
