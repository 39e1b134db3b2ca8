"""Each game's ``solve`` and ``advise`` commands, one module per game, named by the game's
``Parts.commands`` and loaded only when ``kastkopp solve`` or ``kastkopp advise`` is used."""
