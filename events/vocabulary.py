"""The game's event types, registered into `events.catalog`.

Facts are fine-grained and generic (tokens moved, cards moved) so that every power, flare
and edict can be told as a sequence of them. One bookkeeping event remains, ``Bookmark``,
marked ``internal`` (hidden from every log but the admin's): at most one per command, it
tells a fold where the engine's turn sequence stands (engine/context.py). The bookkeeping
events of stream format 1 are marked ``legacy``: stored games hold them and are read with
them (engine/legacy.py); nothing writes them any more.

Privacy: ``private={"cards": ("seen_by",)}`` means the ``cards`` field is shown only to the
players listed in the ``seen_by`` field; a null ``seen_by`` means everyone may see it.
"""

from events.catalog import define

# The lobby and setup -------------------------------------------------------------------------
define("GameCreated", "A game was created with its ruleset, options and number of seats; ``format`` is the "
       "stream format its events are written in (2: facts and bookmarks; 1: every change of the engine's "
       "agenda as an event).",
       {"ruleset": "str", "options": "dict", "seats": "int", "seed": "str", "setup": "dict?",
        "created_by": "str?", "format": "int"},
       version=2, private={"seed": (), "setup": ()})
define("PlayerJoined", "A player took a seat and a colour.",
       {"player": "str", "name": "str", "bot": "str?"})
define("GameStarted", "Play began; the seat order (clockwise) is fixed.", {"order": "list"})
define("PowersDealt", "Each player was dealt its alien power(s); powers are public.", {"powers": "dict"})
define("PowersOffered", "ffg: a player was offered the alien powers it will choose from (only that player "
       "sees which); their flares go into the deck.", {"player": "str", "powers": "list"},
       private={"powers": ("player",)})
define("PowerChosen", "ffg: a player chose its power among those offered (only that player sees which, "
       "until every player has chosen and the powers are dealt).", {"player": "str", "powers": "list"},
       private={"powers": ("player",)})
define("DeckFormed", "A deck was built and shuffled; its order is secret.",
       {"deck": "str", "cards": "list"}, private={"cards": ()})
define("FirstPlayerChosen", "The destiny pile was cut to find the first player.",
       {"player": "str", "cut": "list"})

# Turn sequence ---------------------------------------------------------------------------------
define("TurnBegan", "A player's turn began; that player is the offense.", {"player": "str", "turn": "int"})
define("TurnEnded", "The offense's turn ended.", {"player": "str", "reason": "str?"})
define("ChallengeBegan", "A challenge of the turn began.", {"number": "int"})
define("ChallengeEnded", "A challenge ended, successfully for the offense or not.", {"number": "int", "succeeded": "bool"})
define("StageBegan", "A stage of the challenge began.", {"stage": "int", "name": "str"})
define("Bookmark", "Engine bookkeeping, at most one per command: where the turn sequence stands after it, so a "
       "fold resumes exactly there (the agenda's changed steps, the step counter, the deadlines of the "
       "decisions owed: prompt id -> ms). Written only when the command changed them.",
       {"agenda": "dict?", "sid": "int?", "clock": "dict?"}, internal=True)
define("StepsScheduled", "Stream format 1: the turn sequence's next steps (engine bookkeeping).", {"steps": "list"},
       internal=True, legacy=True)
define("StepUpdated", "Stream format 1: progress within the current step (engine bookkeeping).",
       {"changes": "dict"}, internal=True, legacy=True)
define("AgendaUnwound", "Stream format 1: steps were abandoned up to an earlier point of the turn (engine "
       "bookkeeping).", {"to": "str", "changes": "dict?"}, internal=True, legacy=True)
define("DecisionsOpened", "Stream format 1: decisions now owed and their deadlines; decisions no longer owed.",
       {"opened": "list", "closed": "list"}, legacy=True)
define("DecisionTimedOut", "A decision's deadline passed and its default was applied.",
       {"player": "str", "prompt": "str", "kind": "str", "default": "dict?"})
define("Passed", "A player passed in a timing window; ``until: \"next stage\"``: in every window until the "
       "next stage begins.", {"player": "str", "window": "str", "until": "str?"})
define("DecisionTaken", "A player answered a decision whose answer moves nothing by itself (declining a "
       "power's reaction, naming its own system as the target...); what follows shows its effect.",
       {"player": "str", "kind": "str", "action": "str", "ability": "str?", "side": "str?"})
define("GameEnded", "The game ended: its winners and why.", {"winners": "list", "reason": "str"})

# Seats handed to a bot and taken back (engine/seats.py) ------------------------------------------
define("SeatHandedToBot", "A person's seat is played by a bot of ``level`` from now on: its player asked for it "
       "(``reason`` ``asked``, by its own token or the admin's), or let ``missed`` decisions in a row run out of "
       "time under the ``hand_over_after`` option (``reason`` ``missed``). The bot answers as a person does; "
       "nothing of what it sees or weighs is recorded.",
       {"player": "str", "level": "str", "reason": "str", "missed": "int?"})
define("SeatTakenBack", "The seat's player plays it again (its own token, or the admin's): its bot stops.",
       {"player": "str"})

# History -------------------------------------------------------------------------------------
define("GameRewound", "The game was taken back to the state it had at an earlier version; the events "
       "after that version stay in the stream (see engine/rewind.py).",
       {"to_version": "int", "by": "str", "players": "list?", "clock_shift": "int?"})

# Table talk ------------------------------------------------------------------------------------
define("MessageSent", "A player spoke at the table: to everyone (``to`` null) or to one player. Not a fact of "
       "play: a fold only counts it as a version (engine.evolve.ASIDES), so it changes no game. A private "
       "message (``seen_by``: its two players) is shown to them and the admin only; to anyone else the event "
       "is not there.",
       {"player": "str", "to": "str?", "text": "str", "seen_by": "list?"},
       private={"player": ("seen_by",), "to": ("seen_by",), "text": ("seen_by",), "seen_by": ("seen_by",)},
       audience="seen_by")

# Cards ---------------------------------------------------------------------------------------
define("CardsMoved", "Cards moved between places (hands, deck, discard pile, table; a Miser's ``hoard:<colour>``, "
       "cards set aside through a new hand as ``kept:<colour>``, Citadel's citadels face up beside a planet as "
       "``citadel:<planet>``; ``bottom``: put under the pile, as a Gambler's card not called goes under the deck).",
       {"cards": "list", "src": "str", "dst": "str", "seen_by": "list?", "reason": "str", "bottom": "bool?"},
       private={"cards": ("seen_by",)})
define("DeckReshuffled", "A discard pile was shuffled into a new deck; the order is secret.",
       {"deck": "str", "cards": "list"}, private={"cards": ()})
define("HandRevealed", "A player's hand was shown to some players.",
       {"player": "str", "to": "list", "cards": "list"}, private={"cards": ("player", "to")})
define("CardPlayed", "A card was played face up from a hand (``src``: from elsewhere, such as the player's "
       "hoard).", {"player": "str", "card": "str", "effect": "str?", "args": "dict?", "src": "str?"})
define("ChallengeCardChosen", "A main player committed a challenge card (face down unless ``seen_by`` is null; "
       "``src``: not from its hand but from its hoard).",
       {"player": "str", "side": "str", "card": "str", "face_up": "bool?", "seen_by": "list?", "src": "str?"},
       private={"card": ("seen_by",)})
define("ChallengeCardsRevealed", "The committed challenge cards were turned face up.",
       {"offense": "list", "defense": "list"})
define("RevealUndone", "The revealed challenge cards were taken back; new ones will be played.", {})
define("DestinyDrawn", "The top destiny card was turned up.", {"card": "str"})

# Tokens --------------------------------------------------------------------------------------
define("TokensMoved", "Tokens moved between planets, the cone, the warp and elsewhere.",
       {"moves": "list", "reason": "str"})

# The challenge ------------------------------------------------------------------------------------
define("DefenseDetermined", "The defensive main player (and the side of the cone) was fixed.",
       {"defense": "str", "reverse": "bool", "by": "str"})
define("ConeAimed", "The cone was pointed at a planet.", {"planet": "str"})
define("AlliesInvited", "A main player invited allies.", {"side": "str", "players": "list"})
define("AllianceAnswered", "An invited player joined a side or declined.", {"player": "str", "side": "str?"})
define("AllyRemoved", "An ally was removed from the challenge.", {"player": "str", "by": "str?"})
define("ChallengeResolved", "The outcome of the challenge was determined.", {"outcome": "dict"})
define("ChallengeNoted", "A fact of this challenge that a power or card keeps track of.",
       {"key": "str", "value": "any"})
define("PlayerNoted", "A lasting fact about a player that a power keeps track of.",
       {"player": "str", "key": "str", "value": "any"})
define("EffectAdded", "A flare or edict effect is in force for the rest of the challenge.", {"effect": "dict"})
define("PowerUsed", "A player used an alien power.", {"player": "str", "power": "str", "use": "str?",
                                                      "detail": "dict?"})
define("UseCancelled", "A zap cancelled a power use or a card as it was played.",
       {"player": "str", "target": "dict"})
define("PowerZapped", "A power was cancelled for the rest of the challenge.",
       {"player": "str", "target": "str", "power": "str"})
define("DealStarted", "Both main players revealed Compromises: the deal window opened.", {"deadline": "int?"})
define("DealProposed", "A main player proposed the terms of a deal.",
       {"player": "str", "id": "int", "terms": "dict"})
define("DealAnswered", "A main player accepted a proposal or gave up on making a deal.",
       {"player": "str", "accepted": "int?"})
define("DealConcluded", "The deal was made or failed.", {"made": "bool", "terms": "dict?", "reason": "str?"})

# Powers changing during the game ----------------------------------------------------------------
define("PowersChanged", "A player's powers changed during the game (Reincarnator's reincarnation, its Wild): "
       "``powers`` are the player's powers now, ``gained`` / ``lost`` what changed; a power lost this way is "
       "out of the game for good. Public, as the powers are.",
       {"player": "str", "powers": "list", "gained": "list", "lost": "list", "reason": "str"})
