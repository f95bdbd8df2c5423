"""The expert bot: a player that chooses by searching the game with the engine, from its seat's knowledge.

- `knowledge`: what a seat knows, as a state with placeholders, and possible worlds drawn from it;
- `candidates`: the moves weighed for each kind of decision;
- `rollout`: playing a world forward with the heuristic player;
- `evaluate`: how good a state is for a player;
- `expert`: the search itself (`expert_command`), its budget and its choice.

docs/bots.md says how and why.
"""
