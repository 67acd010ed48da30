"""Every rule of every game, numbered, as package data (`meeple.rules.seeds`): `meeple rules GAME`."""
