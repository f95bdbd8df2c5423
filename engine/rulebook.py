"""Short references to the rules of RULES.md, so that every refusal can name its rule."""

RULES = {
    "1": "Rulesets and options",
    "2": "Components",
    "3": "Setup",
    "lobby": "Joining and starting a game",
    "prompt": "Only a decision that is owed can be made",
    "4.0": "Pre-challenge phase: new hand and start-of-challenge cards",
    "4.0.punt": "Punt: discard and redraw instead of taking a turn",
    "4.1": "Stage 1, regroup",
    "4.2": "Stage 2, destiny",
    "4.2.own": "Stage 2, own colour drawn",
    "4.2.wild": "Stage 2, wild destiny",
    "4.3": "Stage 3, launch",
    "4.4": "Stage 4, offense invites allies",
    "4.5": "Stage 5, defense invites allies",
    "4.6": "Stage 6, alliances",
    "4.7": "Stage 7, play challenge cards",
    "4.8": "Stage 8, reveal and resolve",
    "4.8.attack": "Stage 8, attack against attack",
    "4.8.consolation": "Stage 8, consolation",
    "4.8.deal": "Stage 8, deals",
    "4.8.rewards": "Stage 8, defensive allies' rewards",
    "4.8.reverse": "Stage 8, reverse cone",
    "4.8.losses": "Stage 8, losing tokens of one's choice",
    "4.8.return": "Tokens returning to their owner's bases",
    "4.8.power-loss": "Power loss below 3 home bases",
    "4.8.win": "Winning with 5 external bases",
    "4.9": "Stage 9, discard",
    "4.10": "Stage 10, end of challenge and second challenge",
    "5": "Timing: windows, priorities, responses",
    "6.power": "Alien powers",
    "6.flare": "Flares",
    "6.edict": "Edicts",
    "6.reinforcement": "Reinforcements",
    "7": "War cards and kickers",
    "timer": "Deadlines and defaults",
    "seats": "Seats handed to a bot and taken back",
}


def rule_title(rule: str) -> str:
    """The title of a rule reference; powers and cards name themselves (``power:Macron``)."""
    if rule in RULES:
        return RULES[rule]
    kind, _, name = rule.partition(":")
    if kind in ("power", "flare", "edict", "card") and name:
        return f"the {kind} {name}"
    return rule
