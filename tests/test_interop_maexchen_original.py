"""The message sequences of the original Mäxchen server (conradthukral/maexchen), played
over loopback UDP against kastkopp's server; the signed/maexchen fork's HEARTBEAT,
UNREGISTER and ECHO; and kastkopp's client counting only the rounds it played.

Each expected sequence is what the original sends for the case, as its protocol and its
server's rules describe it (tokens shown as ``<token>``, ``SCORE`` entries sorted):

- an answer that is not the one asked for (another command, a wrong token, dice that are
  no dice) is ignored; the player may still answer in time, else loses with
  ``DID_NOT_TAKE_TURN`` or ``DID_NOT_ANNOUNCE``;
- an announcement is read from the leading numbers of its first two comma-separated parts
  (``6,5,4`` is 6,5);
- a round only one player joined starts, scores that player, and is canceled;
  a round nobody joined is canceled; both are followed by ``SCORE``;
- ``SEE`` before the first roll is broadcast as ``PLAYER WANTS TO SEE`` before the loss.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.interop.maexchen import MaexchenClient, MaexchenServer, read_announcement

TIMEOUT = 0.15  # the server's answer timeout in these tests
TOKEN = re.compile(r"^(ROUND STARTING|YOUR TURN|ROLLED;[^;]*);[0-9a-f]{32}$")


def shown(message: str) -> str:
    """A message as the expected sequences write it: tokens as ``<token>``, scores sorted."""
    message = TOKEN.sub(r"\1;<token>", message)
    if message.startswith("SCORE;"):
        entries = message.removeprefix("SCORE;")
        return "SCORE;" + ",".join(sorted(entries.split(","))) if entries else message
    return message


class Client(asyncio.DatagramProtocol):
    """A raw UDP client: sends what the test says, keeps everything the server sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.received: list[str] = []  # every message but HEARTBEAT, in order

    async def open(self, server: tuple[str, int]) -> Client:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_datagram_endpoint(
            lambda: self, local_addr=("127.0.0.1", 0), remote_addr=server)
        return self

    def datagram_received(self, data: bytes, addr: object) -> None:
        self.inbox.put_nowait(data.decode())

    def send(self, message: str) -> None:
        self.transport.sendto(message.encode())

    async def next(self, within: float = 2.0) -> str:
        while True:
            message = await asyncio.wait_for(self.inbox.get(), within)
            if message != "HEARTBEAT":
                self.received.append(message)
                return message

    async def until(self, prefix: str) -> list[str]:
        """The fields after the command of the next message starting with ``prefix``."""
        while not (message := await self.next()).startswith(prefix):
            pass
        return message.split(";")[1:]

    async def register(self, kind: str = "REGISTER") -> None:
        self.send(f"{kind};{self.name}")
        assert await self.next() == "REGISTERED"

    def sequence(self) -> list[str]:
        return [shown(message) for message in self.received]

    def close(self) -> None:
        self.transport.close()


class Round:
    """Two players (``anna``, ``ben``) and a spectator on a fresh server, one round."""

    def __init__(self, rolls: list[tuple[int, int]]) -> None:
        self.server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None,
                                     dice=ScriptedDice(rolls=rolls), rng=random.Random(1),
                                     idle_pause=0.01)

    async def __aenter__(self) -> Round:
        address = await self.server.start("127.0.0.1", 0)
        self.watcher = await Client("watcher").open(address)
        await self.watcher.register("REGISTER_SPECTATOR")
        self.players = {name: await Client(name).open(address) for name in ("anna", "ben")}
        for player in self.players.values():
            await player.register()
        self.playing = asyncio.create_task(self.server.run(rounds=1))
        for player in self.players.values():
            player.send(f"JOIN;{(await player.until('ROUND STARTING'))[0]}")
        _, names = await self.watcher.until("ROUND STARTED")
        self.order = names.split(",")
        self.first, self.second = (self.players[name] for name in self.order)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()
        self.playing.cancel()
        for client in (self.watcher, *self.players.values()):
            client.close()

    async def seen(self) -> list[str]:
        """What the spectator saw from ROUND STARTED to the round's SCORE."""
        await self.watcher.until("SCORE")
        await asyncio.wait_for(self.playing, 2)
        return self.watcher.sequence()[1:]


def play(scenario):
    return asyncio.run(scenario())


def score(**points: int) -> str:
    """A SCORE message as :func:`shown` writes it."""
    return "SCORE;" + ",".join(sorted(f"{name}:{p}" for name, p in points.items()))


# --------------------------------------------------------------------------- malformed answers


@pytest.mark.parametrize("answer", ["FOO;{token}", "ANNOUNCE;6,5;{token}", "JOIN;{token}",
                                    "ROLL;not-the-token", "ROLL", "roll;{token}"])
def test_an_answer_to_your_turn_that_is_not_roll_or_see_is_ignored_until_the_timeout(answer):
    async def scenario():
        async with Round([(3, 1)]) as game:
            token = (await game.first.until("YOUR TURN"))[0]
            game.first.send(answer.format(token=token))
            return await game.seen(), game.order

    seen, (first, second) = play(scenario)
    assert seen == [f"ROUND STARTED;1;{first},{second}",
                    f"PLAYER LOST;{first};DID_NOT_TAKE_TURN", score(**{first: 0, second: 1})]


def test_a_player_may_correct_a_malformed_answer_within_the_timeout():
    async def scenario():
        async with Round([(3, 1)]) as game:
            token = (await game.first.until("YOUR TURN"))[0]
            game.first.send(f"FOO;{token}")
            game.first.send(f"SEE;{token}x")
            game.first.send(f"ROLL;{token}")
            dice, token = await game.first.until("ROLLED")
            game.first.send(f"SEE;{token}")
            game.first.send(f"ANNOUNCE;7,1;{token}")
            game.first.send(f"ANNOUNCE;{dice};{token}")
            game.second.send(f"SEE;{(await game.second.until('YOUR TURN'))[0]}")
            await game.seen()
            await game.first.until("SCORE")
            return game.first.sequence(), game.order

    sequence, (first, second) = play(scenario)
    assert sequence == [
        "REGISTERED", "ROUND STARTING;<token>", f"ROUND STARTED;1;{first},{second}",
        "YOUR TURN;<token>", f"PLAYER ROLLS;{first}", "ROLLED;3,1;<token>",
        f"ANNOUNCED;{first};3,1", f"PLAYER WANTS TO SEE;{second}", "ACTUAL DICE;3,1",
        f"PLAYER LOST;{second};SEE_FAILED", score(**{first: 1, second: 0})]


@pytest.mark.parametrize("answer", ["SEE;{token}", "ROLL;{token}", "ANNOUNCE;7,1;{token}",
                                    "ANNOUNCE;0,5;{token}", "ANNOUNCE;65;{token}",
                                    "ANNOUNCE;x,y;{token}", "ANNOUNCE;3,1;not-the-token",
                                    "ANNOUNCE;3,1"])
def test_an_answer_to_rolled_that_is_not_an_announcement_is_ignored_until_the_timeout(answer):
    async def scenario():
        async with Round([(3, 1)]) as game:
            game.first.send(f"ROLL;{(await game.first.until('YOUR TURN'))[0]}")
            _, token = await game.first.until("ROLLED")
            game.first.send(answer.format(token=token))
            return await game.seen(), game.order

    seen, (first, second) = play(scenario)
    assert seen == [f"ROUND STARTED;1;{first},{second}", f"PLAYER ROLLS;{first}",
                    f"PLAYER LOST;{first};DID_NOT_ANNOUNCE", score(**{first: 0, second: 1})]


@pytest.mark.parametrize(("announced", "read"), [("6,5,4", "6,5"), ("5,6", "6,5"),
                                                 ("6x,5", "6,5"), ("2,1,", "2,1"),
                                                 (" 4,+4", "4,4")])
def test_an_announcement_is_read_as_the_original_reads_it(announced, read):
    async def scenario():
        async with Round([(6, 6)]) as game:
            game.first.send(f"ROLL;{(await game.first.until('YOUR TURN'))[0]}")
            _, token = await game.first.until("ROLLED")
            game.first.send(f"ANNOUNCE;{announced};{token}")
            return (await game.first.until("ANNOUNCED")), game.order

    fields, order = play(scenario)
    assert fields == [order[0], read]


def test_announced_dice_are_the_leading_numbers_of_the_first_two_parts():
    assert read_announcement("6,5") == read_announcement("5,6") == 65
    assert read_announcement("6,5,4") == read_announcement("6.9,5abc") == 65
    assert read_announcement("1,2") == 21 and read_announcement("3,3") == 33
    for no_dice in ("7,1", "0,5", "-1,2", "65", "", ",", "six,five", "6,"):
        assert read_announcement(no_dice) is None


# --------------------------------------------------------------------------- whole rounds


def test_see_before_the_first_roll_is_broadcast_before_the_loss():
    async def scenario():
        async with Round([(3, 1)]) as game:
            game.first.send(f"SEE;{(await game.first.until('YOUR TURN'))[0]}")
            return await game.seen(), game.order

    seen, (first, second) = play(scenario)
    assert seen == [f"ROUND STARTED;1;{first},{second}", f"PLAYER WANTS TO SEE;{first}",
                    f"PLAYER LOST;{first};SEE_BEFORE_FIRST_ROLL", score(**{first: 0, second: 1})]


def test_a_round_with_a_call_that_fails_is_the_originals_sequence():
    async def scenario():
        async with Round([(6, 6)]) as game:
            game.first.send(f"ROLL;{(await game.first.until('YOUR TURN'))[0]}")
            _, token = await game.first.until("ROLLED")
            game.first.send(f"ANNOUNCE;6,6;{token}")
            game.second.send(f"SEE;{(await game.second.until('YOUR TURN'))[0]}")
            return await game.seen(), game.order

    seen, (first, second) = play(scenario)
    assert seen == [f"ROUND STARTED;1;{first},{second}", f"PLAYER ROLLS;{first}",
                    f"ANNOUNCED;{first};6,6", f"PLAYER WANTS TO SEE;{second}",
                    "ACTUAL DICE;6,6", f"PLAYER LOST;{second};SEE_FAILED",
                    score(**{first: 1, second: 0})]


def test_mia_announced_is_the_originals_sequence():
    async def scenario():
        async with Round([(1, 2)]) as game:
            game.first.send(f"ROLL;{(await game.first.until('YOUR TURN'))[0]}")
            _, token = await game.first.until("ROLLED")
            game.first.send(f"ANNOUNCE;2,1;{token}")
            return await game.seen(), game.order

    seen, (first, second) = play(scenario)
    assert seen == [f"ROUND STARTED;1;{first},{second}", f"PLAYER ROLLS;{first}",
                    f"ANNOUNCED;{first};2,1", "ACTUAL DICE;2,1",
                    f"PLAYER LOST;{second};MIA",
                    score(**{first: 1, second: 0})]


def test_a_round_only_one_player_joins_starts_scores_them_and_is_canceled():
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None, dice=SeededDice(0),
                                idle_pause=0.01)
        address = await server.start("127.0.0.1", 0)
        watcher, solo = await Client("watcher").open(address), await Client("solo").open(address)
        await watcher.register("REGISTER_SPECTATOR")
        await solo.register()
        rounds: list[object] = []
        server.watch_rounds(rounds.append)
        playing = asyncio.create_task(server.run(rounds=1))
        for _ in range(2):
            solo.send(f"JOIN;{(await solo.until('ROUND STARTING'))[0]}")
            await solo.until("SCORE")
        await watcher.until("SCORE")
        await watcher.until("SCORE")
        done = playing.done()
        server.close()
        await playing
        for client in (watcher, solo):
            client.close()
        return solo.sequence(), watcher.sequence(), server, rounds, done

    sequence, watched, server, rounds, done = play(scenario)
    assert sequence == ["REGISTERED",
                        "ROUND STARTING;<token>", "ROUND STARTED;1;solo",
                        "ROUND CANCELED;ONLY_ONE_PLAYER", "SCORE;solo:1",
                        "ROUND STARTING;<token>", "ROUND STARTED;2;solo",
                        "ROUND CANCELED;ONLY_ONE_PLAYER", "SCORE;solo:2"]
    # a spectator is not invited, and hears the rest
    assert watched == ["REGISTERED", *(m for m in sequence[1:] if "STARTING" not in m)]
    # nothing was played: no table kept, no round counted
    assert not done and rounds == [] and list(server.tables) == []
    assert server.scores == {"solo": 2}


def test_a_round_nobody_joins_is_canceled_and_scored():
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None, dice=SeededDice(0))
        address = await server.start("127.0.0.1", 0)
        sleeper = await Client("sleeper").open(address)
        await sleeper.register()
        await server.play_round()
        await sleeper.until("SCORE")
        server.close()
        sleeper.close()
        return sleeper.sequence()

    assert play(scenario) == ["REGISTERED", "ROUND STARTING;<token>",
                              "ROUND CANCELED;NO_PLAYERS", "SCORE;sleeper:0"]


# --------------------------------------------------------------------------- the signed fork


def test_every_client_hears_a_heartbeat():
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=0.05)
        address = await server.start("127.0.0.1", 0)
        player, watcher, stranger = [await Client(n).open(address)
                                     for n in ("anna", "watcher", "stranger")]
        await player.register()
        await watcher.register("REGISTER_SPECTATOR")
        # two beats each: one sent to the stranger with the first would be in by the second
        beats = [await asyncio.wait_for(c.inbox.get(), 2)
                 for c in (player, watcher) for _ in range(2)]
        stranger_heard = not stranger.inbox.empty()
        server.close()
        for client in (player, watcher, stranger):
            client.close()
        return beats, stranger_heard

    beats, stranger_heard = play(scenario)
    assert beats == ["HEARTBEAT"] * 4
    assert not stranger_heard  # only registered clients are sent heartbeats


@pytest.mark.parametrize("message", ["UNREGISTER", "UNREGISTER;"])
def test_an_unregistered_player_is_told_so_and_invited_no_more(message):
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None)
        address = await server.start("127.0.0.1", 0)
        anna, ben = await Client("anna").open(address), await Client("ben").open(address)
        for client in (anna, ben):
            await client.register()
        server.scores["anna"] = 7
        anna.send(message)
        answer = await anna.next()
        players = server.players
        await server.play_round()  # ben alone: invited, does not join
        await ben.until("SCORE")
        anna_heard = not anna.inbox.empty()
        await anna.register()  # back again: the score was kept
        server.close()
        for client in (anna, ben):
            client.close()
        return answer, players, anna_heard, ben.sequence(), server.scores["anna"]

    answer, players, anna_heard, ben_heard, kept = play(scenario)
    assert answer == "UNREGISTERED"
    assert players == ["ben"] and not anna_heard
    assert ben_heard[-1] == "SCORE;ben:0"  # anna is no longer listed
    assert kept == 7


def test_a_player_leaving_on_their_turn_loses_the_round_at_once():
    async def scenario():
        async with Round([(3, 1)]) as game:
            await game.first.until("YOUR TURN")
            game.first.send("UNREGISTER")
            left = await game.first.next()
            return left, await game.seen(), game.order

    left, seen, (first, second) = play(scenario)
    assert left == "UNREGISTERED"
    assert seen == [f"ROUND STARTED;1;{first},{second}",
                    f"PLAYER LOST;{first};DID_NOT_TAKE_TURN", f"SCORE;{second}:1"]


def test_unregister_from_a_stranger_is_ignored():
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None)
        address = await server.start("127.0.0.1", 0)
        anna, stranger = await Client("anna").open(address), await Client("x").open(address)
        await anna.register()
        stranger.send("UNREGISTER")
        stranger.send("ECHO;after")
        answer = await stranger.next()
        server.close()
        anna.close()
        stranger.close()
        return answer, server.players

    assert play(scenario) == ("ECHOING;after", ["anna"])


@pytest.mark.parametrize(("sent", "echoed"), [("ECHO;hello", "ECHOING;hello"),
                                              ("ECHO", "ECHOING;42"),
                                              ("ECHO;", "ECHOING;"),
                                              ("ECHO;a;b", "ECHOING;ab")])
def test_echo_answers_anyone(sent, echoed):
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None)
        address = await server.start("127.0.0.1", 0)
        client = await Client("anyone").open(address)
        client.send(sent)
        answer = await client.next()
        server.close()
        client.close()
        return answer

    assert play(scenario) == echoed


# --------------------------------------------------------------------------- the client's count


class OriginalServer(asyncio.DatagramProtocol):
    """Sends a client the original server's messages, as a test script says."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[tuple[str, tuple[str, int]]] = asyncio.Queue()
        self.client: tuple[str, int] | None = None

    async def open(self) -> tuple[str, int]:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_datagram_endpoint(
            lambda: self, local_addr=("127.0.0.1", 0))
        return self.transport.get_extra_info("sockname")[:2]

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        self.inbox.put_nowait((data.decode(), addr))

    async def receive(self) -> str:
        message, self.client = await asyncio.wait_for(self.inbox.get(), 2)
        return message

    def send(self, *messages: str) -> None:
        assert self.client is not None
        for message in messages:
            self.transport.sendto(message.encode(), self.client)


def test_the_client_counts_only_rounds_it_played():
    async def scenario():
        server = OriginalServer()
        address = await server.open()
        client = MaexchenClient("kastkopp", seed=1)
        connecting = asyncio.create_task(client.connect(*address))
        assert await server.receive() == "REGISTER;kastkopp"
        server.send("REGISTERED")
        await connecting
        playing = asyncio.create_task(client.run(rounds=1))
        # a round already under way when the client came
        server.send("PLAYER LOST;x;MIA", "SCORE;kastkopp:0,x:3,y:2", "HEARTBEAT")
        # alone: five rounds started and canceled, each scored
        for number in range(1, 6):
            server.send(f"ROUND STARTING;t{number}")
            assert await server.receive() == f"JOIN;t{number}"
            server.send(f"ROUND STARTED;{number};kastkopp", "ROUND CANCELED;ONLY_ONE_PLAYER",
                        f"SCORE;kastkopp:{number},x:3,y:2")
        # nobody joined in time
        server.send("ROUND STARTING;t6")
        assert await server.receive() == "JOIN;t6"
        server.send("ROUND CANCELED;NO_PLAYERS", "SCORE;kastkopp:5,x:3,y:2")
        # a round the client was not in
        server.send("ROUND STARTED;7;x,y", "PLAYER ROLLS;x", "ANNOUNCED;x;2,1",
                    "ACTUAL DICE;2,1", "PLAYER LOST;y;MIA", "SCORE;kastkopp:5,x:4,y:2")
        server.send("ECHOING;are you there")
        server.send("ROUND STARTING;t8")
        assert await server.receive() == "JOIN;t8"
        before = (client.rounds_played, playing.done(), dict(client.scores))
        # a round it played: x rolls Mia at once
        server.send("ROUND STARTED;8;x,kastkopp", "PLAYER ROLLS;x", "ANNOUNCED;x;2,1",
                    "ACTUAL DICE;2,1", "PLAYER LOST;kastkopp;MIA", "SCORE;kastkopp:5,x:5,y:2")
        await asyncio.wait_for(playing, 2)
        client.close()
        server.transport.close()
        return before, client

    (played_before, finished_before, scores_before), client = play(scenario)
    assert played_before == 0 and not finished_before
    assert scores_before == {"kastkopp": 5, "x": 4, "y": 2}
    assert client.rounds_played == 1
    assert client.scores == {"kastkopp": 5, "x": 5, "y": 2}


def test_the_client_alone_on_kastkopps_server_plays_no_round_until_someone_comes():
    async def scenario():
        # both clients answer: a timeout that a busy machine cannot overrun costs no time
        server = MaexchenServer(answer_timeout=5.0, heartbeat=0.05, dice=SeededDice(2),
                                rng=random.Random(2), idle_pause=0.01)
        address = await server.start("127.0.0.1", 0)
        canceled: list[str] = []
        server.watch(lambda m: canceled.append(m) if m.startswith("ROUND CANCELED") else None)
        first = MaexchenClient("anna", seed=1)
        await first.connect(*address)
        serving = asyncio.create_task(server.run())
        playing = asyncio.create_task(first.run(rounds=2))
        while len(canceled) < 3:
            await asyncio.sleep(0.01)
        alone = (first.rounds_played, playing.done(), first.scores["anna"])
        second = MaexchenClient("ben", seed=2)
        await second.connect(*address)
        await asyncio.wait_for(asyncio.gather(playing, second.run(rounds=2)), 10)
        server.close()
        await serving
        for client in (first, second):
            client.close()
        return alone, first, second, server

    (played, finished, points), first, second, server = play(scenario)
    assert played == 0 and not finished and points >= 3  # each lone round scored
    assert first.rounds_played == second.rounds_played == 2
    assert len(server.tables) >= 2


def test_the_client_leaving_unregisters_from_the_server():
    async def scenario():
        server = MaexchenServer(answer_timeout=TIMEOUT, heartbeat=None)
        address = await server.start("127.0.0.1", 0)
        client = MaexchenClient("anna")
        await client.connect(*address)
        registered = server.players
        client.leave()

        async def gone() -> None:
            while server.players:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(gone(), 2)
        server.close()
        return registered, client.transport.is_closing()

    assert play(scenario) == (["anna"], True)


def test_the_server_command_refuses_a_negative_heartbeat():
    result = CliRunner().invoke(app, ["maexchen-server", "--port", "0", "--heartbeat-ms", "-5"])
    assert result.exit_code != 0
    assert "heartbeat must be 0 (none) or more ms, not -5" in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr
