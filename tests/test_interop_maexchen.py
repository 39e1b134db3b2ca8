"""The Mäxchen server and client over loopback UDP: registration, rounds, every way to lose
a round, timeouts, scores, and kastkopp's client playing on kastkopp's server."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import Counter

import pytest
from typer.testing import CliRunner

from kastkopp.cli import app
from kastkopp.dice import ScriptedDice, SeededDice
from kastkopp.engine import KastkoppError, Table
from kastkopp.interop.maexchen import (
    GAME,
    REASONS,
    MaexchenClient,
    MaexchenServer,
    dice_text,
    parse_server,
    read_dice,
    running,
    serve,
    valid_name,
)
from kastkopp.locale.messages import translate
from kastkopp.strategy import bot_names

TIMEOUT = 0.15  # the servers' answer timeout in these tests


class Peer(asyncio.DatagramProtocol):
    """A scripted client: sends what the test says, and reads what the server sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.seen: list[str] = []

    async def open(self, server: tuple[str, int], local: str = "127.0.0.1") -> Peer:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_datagram_endpoint(
            lambda: self, local_addr=(local, 0), remote_addr=server)
        return self

    def datagram_received(self, data, addr) -> None:
        self.inbox.put_nowait(data.decode())

    def send(self, message: str) -> None:
        self.transport.sendto(message.encode())

    async def expect(self, prefix: str, within: float = 2.0) -> list[str]:
        """The fields after ``prefix`` of the next message starting with it."""
        deadline = time.monotonic() + within
        while True:
            message = await asyncio.wait_for(self.inbox.get(), deadline - time.monotonic())
            self.seen.append(message)
            if message.startswith(prefix):
                return message.split(";")[1:]

    async def register(self, kind: str = "REGISTER") -> str:
        self.send(f"{kind};{self.name}")
        return await self.next()

    async def next(self, within: float = 2.0) -> str:
        message = await asyncio.wait_for(self.inbox.get(), within)
        self.seen.append(message)
        return message

    def close(self) -> None:
        self.transport.close()


async def started_server(dice=None, seed: int = 0, timeout: float = TIMEOUT):
    server = MaexchenServer(answer_timeout=timeout, dice=dice or SeededDice(seed),
                            rng=random.Random(seed), idle_pause=0.01)
    address = await server.start("127.0.0.1", 0)
    return server, address


async def round_with(rolls, script, kept=None):
    """Two scripted players play one round; ``script(first, second)`` plays the turns.

    Returns the PLAYER LOST fields, the SCORE fields and the order of play (and adds the
    rounds the server kept to ``kept``).
    """
    server, address = await started_server(ScriptedDice(rolls=[tuple(r) for r in rolls]))
    anna, ben = await Peer("anna").open(address), await Peer("ben").open(address)
    try:
        for peer in (anna, ben):
            assert await peer.register() == "REGISTERED"
        playing = asyncio.create_task(server.run(rounds=1))
        for peer in (anna, ben):
            token = (await peer.expect("ROUND STARTING"))[0]
            peer.send(f"JOIN;{token}")
        _, names = await anna.expect("ROUND STARTED")
        order = names.split(",")
        peers = {"anna": anna, "ben": ben}
        await script(peers[order[0]], peers[order[1]])
        lost = await anna.expect("PLAYER LOST")
        score = await anna.expect("SCORE")
        await playing
        if kept is not None:
            kept.extend(server.tables)
        return lost, score, order
    finally:
        server.close()
        anna.close()
        ben.close()


async def roll_and_announce(peer: Peer, announce: str | None = None) -> str:
    """Take a turn by rolling and announcing (the truth unless told otherwise)."""
    token = (await peer.expect("YOUR TURN"))[0]
    peer.send(f"ROLL;{token}")
    dice, token = await peer.expect("ROLLED")
    peer.send(f"ANNOUNCE;{announce or dice};{token}")
    return dice


async def see(peer: Peer) -> None:
    token = (await peer.expect("YOUR TURN"))[0]
    peer.send(f"SEE;{token}")


def run(coroutine):
    return asyncio.run(coroutine)


# --------------------------------------------------------------------------- the wire


def test_dice_are_written_high_die_first_and_read_either_way():
    assert dice_text(65) == "6,5" and dice_text(21) == "2,1" and dice_text(33) == "3,3"
    assert read_dice("6,5") == read_dice("5,6") == 65
    for bad in ("7,1", "65", "6;5", "", "6,5,4"):
        with pytest.raises(ValueError):
            read_dice(bad)


def test_names_are_up_to_twenty_characters_without_separators_or_spaces():
    assert valid_name("a" * 20) and valid_name("bot-7_ä")
    for bad in ("", "a" * 21, "a,b", "a;b", "a:b", "a b", "a\tb"):
        assert not valid_name(bad)


def test_server_address_is_host_and_port():
    assert parse_server("example.org:9001") == ("example.org", 9001)
    assert parse_server("localhost") == ("localhost", 9000)
    with pytest.raises(KastkoppError, match="HOST:PORT"):
        parse_server("localhost:port")


# --------------------------------------------------------------------------- registering


def test_registration_accepts_valid_names_and_rejects_invalid_ones():
    async def scenario():
        server, address = await started_server()
        answers = {}
        for name in ("anna", "", "x" * 21, "a,b", "a:b", "a b"):
            peer = await Peer(name).open(address)
            answers[name] = await peer.register()
            peer.close()
        spectator = await Peer("watcher").open(address)
        answers["watcher"] = await spectator.register("REGISTER_SPECTATOR")
        server.close()
        spectator.close()
        return answers, server.players

    answers, players = run(scenario())
    assert answers == {"anna": "REGISTERED", "": "REJECTED;INVALID_NAME",
                       "x" * 21: "REJECTED;INVALID_NAME", "a,b": "REJECTED;INVALID_NAME",
                       "a:b": "REJECTED;INVALID_NAME", "a b": "REJECTED;INVALID_NAME",
                       "watcher": "REGISTERED"}
    assert players == ["anna"]


def test_a_taken_name_is_refused_from_another_host_but_moves_to_a_new_port_of_the_same():
    async def scenario():
        server, address = await started_server()
        first = await Peer("anna").open(address)
        assert await first.register() == "REGISTERED"
        other_host = await Peer("anna").open(address, local="127.0.0.2")
        refused = await other_host.register()
        new_port = await Peer("anna").open(address)
        moved = await new_port.register()
        registered_at = server.registrations["anna"].address
        local = new_port.transport.get_extra_info("sockname")
        for peer in (first, other_host, new_port):
            peer.close()
        server.close()
        return refused, moved, registered_at, local

    refused, moved, registered_at, local = run(scenario())
    assert refused == "REJECTED;NAME_ALREADY_TAKEN"
    assert moved == "REGISTERED"
    assert registered_at == (local[0], local[1])


def test_garbage_datagrams_are_ignored_and_the_server_keeps_serving():
    async def scenario():
        server, address = await started_server()
        peer = await Peer("anna").open(address)
        peer.transport.sendto(b"\xff\xfe\x00")
        for junk in ("HELLO", "JOIN", "ROLL;1234", ";;;", "ANNOUNCE;6,5;x"):
            peer.send(junk)
        peer.send("REGISTER")
        nameless = await peer.next()
        registered = await peer.register()
        server.close()
        peer.close()
        return nameless, registered

    assert run(scenario()) == ("REJECTED;INVALID_NAME", "REGISTERED")


def test_round_is_canceled_without_players_or_with_only_one():
    async def scenario():
        server, address = await started_server()
        watcher, anna = await Peer("watcher").open(address), await Peer("anna").open(address)
        await watcher.register("REGISTER_SPECTATOR")
        await server.play_round()
        nobody = await watcher.expect("ROUND CANCELED")
        await anna.register()
        playing = asyncio.create_task(server.play_round())
        token = (await anna.expect("ROUND STARTING"))[0]
        anna.send(f"JOIN;{token}")
        alone = await anna.expect("ROUND CANCELED")
        await playing
        server.close()
        watcher.close()
        anna.close()
        return nobody, alone

    assert run(scenario()) == (["NO_PLAYERS"], ["ONLY_ONE_PLAYER"])


def test_a_player_who_does_not_join_sits_the_round_out():
    async def scenario():
        server, address = await started_server()
        peers = [await Peer(n).open(address) for n in ("anna", "ben", "cara")]
        for peer in peers:
            await peer.register()
        playing = asyncio.create_task(server.play_round())
        for peer in peers[:2]:
            token = (await peer.expect("ROUND STARTING"))[0]
            peer.send(f"JOIN;{token}")
        started = await peers[2].expect("ROUND STARTED")
        playing.cancel()
        server.close()
        for peer in peers:
            peer.close()
        return started

    number, names = run(scenario())
    assert number == "1" and sorted(names.split(",")) == ["anna", "ben"]


# --------------------------------------------------------------------------- losing a round


def test_mia_announced_and_rolled_makes_everyone_else_lose():
    async def script(first, second):
        await roll_and_announce(first)

    lost, score, order = run(round_with([(2, 1)], script))
    assert lost == [order[1], "MIA"]
    assert sorted(score[0].split(",")) == sorted([f"{order[0]}:1", f"{order[1]}:0"])


def test_mia_announced_but_not_rolled_makes_the_announcer_lose():
    async def script(first, second):
        await roll_and_announce(first, "2,1")

    lost, _, order = run(round_with([(3, 1)], script))
    assert lost == [order[0], "LIED_ABOUT_MIA"]


def test_seeing_dice_lower_than_announced_catches_the_bluffer():
    async def script(first, second):
        await roll_and_announce(first, "6,5")
        await see(second)
        assert await second.expect("PLAYER WANTS TO SEE") == [second.name]
        assert await second.expect("ACTUAL DICE") == ["3,1"]

    lost, _, order = run(round_with([(1, 3)], script))
    assert lost == [order[0], "CAUGHT_BLUFFING"]


def test_seeing_dice_as_high_as_announced_costs_the_one_who_saw():
    async def script(first, second):
        await roll_and_announce(first)
        await see(second)

    lost, _, order = run(round_with([(4, 6)], script))
    assert lost == [order[1], "SEE_FAILED"]


def test_announcing_no_higher_than_the_last_claim_loses():
    async def script(first, second):
        await roll_and_announce(first, "6,6")
        await roll_and_announce(second, "6,6")  # equal is not higher

    lost, _, order = run(round_with([(1, 3), (5, 5)], script))
    assert lost == [order[1], "ANNOUNCED_LOSING_DICE"]


def test_doubles_beat_65_and_a_roll_that_believes_can_win_the_round():
    async def script(first, second):
        await roll_and_announce(first, "6,5")
        await roll_and_announce(second, "1,1")  # 11 is above 65 in the classic order
        await see(first)

    lost, _, order = run(round_with([(3, 2), (1, 1)], script))
    assert lost == [order[0], "SEE_FAILED"]


def test_seeing_before_the_first_roll_loses():
    async def script(first, second):
        await see(first)

    lost, _, order = run(round_with([(3, 2)], script))
    assert lost == [order[0], "SEE_BEFORE_FIRST_ROLL"]


def test_an_answer_that_is_neither_roll_nor_see_is_ignored_until_the_timeout():
    async def script(first, second):
        token = (await first.expect("YOUR TURN"))[0]
        first.send(f"ANNOUNCE;6,5;{token}")

    lost, _, order = run(round_with([(3, 2)], script))
    assert lost == [order[0], "DID_NOT_TAKE_TURN"]


def test_an_announcement_that_is_not_two_dice_is_ignored_until_the_timeout():
    async def script(first, second):
        token = (await first.expect("YOUR TURN"))[0]
        first.send(f"ROLL;{token}")
        _, token = await first.expect("ROLLED")
        first.send(f"ANNOUNCE;7,7;{token}")

    lost, _, order = run(round_with([(3, 2)], script))
    assert lost == [order[0], "DID_NOT_ANNOUNCE"]


def test_no_answer_to_your_turn_within_the_timeout_loses():
    started = time.monotonic()

    async def script(first, second):
        await first.expect("YOUR TURN")

    lost, _, order = run(round_with([(3, 2)], script))
    assert lost == [order[0], "DID_NOT_TAKE_TURN"]
    assert time.monotonic() - started >= TIMEOUT


def test_no_announcement_within_the_timeout_loses():
    async def script(first, second):
        token = (await first.expect("YOUR TURN"))[0]
        first.send(f"ROLL;{token}")
        await first.expect("ROLLED")

    lost, _, order = run(round_with([(3, 2)], script))
    assert lost == [order[0], "DID_NOT_ANNOUNCE"]


def test_a_message_with_a_wrong_token_is_ignored():
    async def script(first, second):
        token = (await first.expect("YOUR TURN"))[0]
        first.send("SEE;not-the-token")  # would lose at once if it counted
        first.send(f"ROLL;{token}")
        dice, token = await first.expect("ROLLED")
        first.send(f"ANNOUNCE;{dice};{token}")
        await see(second)

    lost, _, order = run(round_with([(6, 6)], script))
    assert lost == [order[1], "SEE_FAILED"]


def test_every_loss_reason_is_one_of_the_protocols():
    assert set(REASONS) == {
        "SEE_BEFORE_FIRST_ROLL", "LIED_ABOUT_MIA", "ANNOUNCED_LOSING_DICE",
        "DID_NOT_ANNOUNCE", "DID_NOT_TAKE_TURN", "INVALID_TURN", "SEE_FAILED",
        "CAUGHT_BLUFFING", "MIA"}


# --------------------------------------------------------------------------- kastkopp vs kastkopp


def test_kastkopp_bots_play_rounds_on_the_kastkopp_server_and_agree_on_the_score():
    async def scenario():
        # every bot answers: a timeout that a busy machine cannot overrun costs no time
        server, address = await started_server(SeededDice(4), seed=4, timeout=5.0)
        broadcast: list[str] = []
        server.watch(broadcast.append)
        clients = [MaexchenClient(name, strategy=strategy, seed=i)
                   for i, (name, strategy) in enumerate(
                       [("anna", "sensible"), ("ben", "random"), ("cara", "sensible")])]
        for client in clients:
            await client.connect(*address)
        playing = asyncio.create_task(server.run(rounds=30))
        await asyncio.wait_for(asyncio.gather(*(c.run(rounds=30) for c in clients)), 20)
        await playing
        server.close()
        for client in clients:
            client.close()
        return server, clients, broadcast

    server, clients, broadcast = run(scenario())
    results = list(server.tables)
    assert len(results) == 30
    reasons = Counter(result.reason for result in results)
    # bots always answer in time and in turn, so only the rules decide the rounds
    assert set(reasons) <= {"MIA", "LIED_ABOUT_MIA", "SEE_FAILED", "CAUGHT_BLUFFING"}
    assert reasons["SEE_FAILED"] and reasons["CAUGHT_BLUFFING"]
    played = Counter(name for result in results for name in result.players)
    lost = Counter(name for result in results for name in result.losers)
    assert server.scores == {name: played[name] - lost[name] for name in played}
    for client in clients:
        assert client.scores == server.scores
        assert client.rounds_played == 30
    # each round is a kastkopp table that replays from its log
    for result in results:
        assert Table.from_json(result.table.to_json()).state == result.table.state
    assert broadcast[0].startswith("ROUND STARTED;1;")


def test_the_client_plays_on_through_rounds_another_player_forfeits():
    async def scenario():
        server, address = await started_server(SeededDice(8), seed=8)
        client = MaexchenClient("kastkopp", seed=1)
        await client.connect(*address)
        sleeper = await Peer("sleeper").open(address)
        await sleeper.register()

        async def join_but_never_play():
            while True:
                token = (await sleeper.expect("ROUND STARTING", within=5))[0]
                sleeper.send(f"JOIN;{token}")

        joining = asyncio.create_task(join_but_never_play())
        playing = asyncio.create_task(server.run(rounds=4))
        await asyncio.wait_for(client.run(rounds=4), 10)
        await playing
        joining.cancel()
        server.close()
        client.close()
        sleeper.close()
        return server, client

    server, client = run(scenario())
    assert {result.reason for result in server.tables} == {"DID_NOT_TAKE_TURN"}
    assert all(result.losers == ["sleeper"] for result in server.tables)
    assert client.scores == server.scores == {"kastkopp": 4, "sleeper": 0}


def test_serve_starts_rounds_in_the_background_until_closed():
    async def scenario():
        server, task = await serve("127.0.0.1", 0, answer_timeout=0.05, idle_pause=0.01)
        watcher = await Peer("watcher").open(server.transport.get_extra_info("sockname"))
        await watcher.register("REGISTER_SPECTATOR")
        canceled = await watcher.expect("ROUND CANCELED")
        server.close()
        await asyncio.wait_for(task, 1)
        watcher.close()
        return canceled

    assert run(scenario()) == ["NO_PLAYERS"]


def test_running_serves_for_the_length_of_a_with_block():
    async def scenario():
        async with running("127.0.0.1", 0, answer_timeout=0.05, idle_pause=0.01) as server:
            address = server.transport.get_extra_info("sockname")
            client = MaexchenClient("anna")
            await client.connect(*address)
            client.close()
        return server

    server = run(scenario())
    assert server.closed and server.players == ["anna"]


def test_closing_while_players_are_invited_ends_the_round_at_once():
    # a server stopped between rounds does not first wait out the joining time (an hour
    # here: without the close the wait below would give up long before)
    async def scenario():
        server, task = await serve("127.0.0.1", 0, answer_timeout=3600, idle_pause=0.01)
        anna = await Peer("anna").open(server.transport.get_extra_info("sockname"))
        await anna.register("REGISTER")
        await anna.expect("ROUND STARTING")  # and anna never joins
        server.close()
        await asyncio.wait_for(task, 30)
        anna.close()
        return server

    server = run(scenario())
    assert server.closed and not server.tables and server.rounds_started == 0


def test_closing_in_the_middle_of_a_round_ends_it_at_once_unscored():
    # the player to move never answers; the close ends the round without waiting out the
    # answer timeout (an hour here: the wait below gives up long before)
    async def scenario():
        server, task = await serve("127.0.0.1", 0, answer_timeout=3600, idle_pause=0.01,
                                   heartbeat=None)
        address = server.transport.get_extra_info("sockname")
        anna, ben = await Peer("anna").open(address), await Peer("ben").open(address)
        for peer in (anna, ben):
            assert await peer.register() == "REGISTERED"
        for peer in (anna, ben):
            token = (await peer.expect("ROUND STARTING"))[0]
            peer.send(f"JOIN;{token}")
        _, names = await anna.expect("ROUND STARTED")
        first = {"anna": anna, "ben": ben}[names.split(",")[0]]
        await first.expect("YOUR TURN")  # and no answer comes
        server.close()
        await asyncio.wait_for(task, 10)
        anna.close()
        ben.close()
        return server

    server = run(scenario())
    assert server.closed and server.rounds_started == 1
    assert not server.tables and server.table is None
    assert server.scores == {"anna": 0, "ben": 0}


def test_the_client_reports_a_refused_name_and_a_silent_server():
    async def scenario():
        server, address = await started_server()
        first = MaexchenClient("anna")
        await first.connect(*address)
        server.registrations["anna"].address = ("127.0.0.9", 1)  # taken from another host
        second = MaexchenClient("anna")
        with pytest.raises(KastkoppError, match="it is already taken") as refused:
            await second.connect(*address)
        assert translate(refused.value, "sv") == \
            "servern nekade namnet 'anna': det är redan upptaget"
        server.close()
        first.close()
        silent = MaexchenClient("ben")
        with pytest.raises(KastkoppError, match="no answer"):
            await silent.connect(*address, timeout=0.1)

    run(scenario())


def test_the_clients_refusals_are_told_in_the_users_language():
    out = CliRunner().invoke(app, ["--lang", "da", "bot", "maexchen", "--server", "x:y"])
    assert out.exit_code == 2 and "'x:y' er ikke VÆRT:PORT (f.eks. localhost:9000)" in out.stderr
    out = CliRunner().invoke(app, ["--lang", "sv", "bot", "maexchen", "--name", "två ord"])
    assert out.exit_code == 2
    assert "'två ord' är inget Mäxchen-namn: 1 till 20 tecken" in out.stderr
    out = CliRunner().invoke(app, ["--lang", "sv", "maexchen-server", "--port", "70000"])
    assert out.exit_code == 2 and "porten måste vara 0 till 65535, inte 70000" in out.stderr


def test_a_client_name_is_checked_before_anything_is_sent():
    with pytest.raises(KastkoppError, match="not a Mäxchen name"):
        MaexchenClient("two words")
    with pytest.raises(KastkoppError, match="no bot"):
        MaexchenClient("anna", strategy="clairvoyant")


def test_the_command_line_bot_reads_its_name_as_every_bot_name_is():
    # the settings a name gives, and a bad one refused in the user's language before
    # anything is sent
    bad = CliRunner().invoke(app, ["--lang", "sv", "bot", "maexchen", "--strategy",
                                   "sensible:sims=5"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output + bad.stderr
    assert "bot:sensible har inga inställningar, inte 'sims=5'" in bad.stderr
    if "ismcts" not in bot_names(GAME):
        pytest.skip("bot:ismcts needs the openspiel extra")
    bad = CliRunner().invoke(app, ["--lang", "da", "bot", "maexchen", "--strategy",
                                   "ismcts:sims=1"])
    assert bad.exit_code == 2 and "sims er et helt tal fra 2 til 1000000, ikke '1'" in bad.stderr

    # a server with another player, in a thread of its own while the command plays on it
    ready, done, address = threading.Event(), threading.Event(), []

    def host() -> None:
        async def main() -> None:
            async with running("127.0.0.1", 0, answer_timeout=30, idle_pause=0.01) as server:
                address.append(server.transport.get_extra_info("sockname"))
                ben = MaexchenClient("ben", strategy="random", seed=1)
                await ben.connect(*address[0])
                ready.set()
                while not done.is_set():
                    await asyncio.sleep(0.01)
                ben.close()

        asyncio.run(main())

    thread = threading.Thread(target=host)
    thread.start()
    try:
        assert ready.wait(10)
        host_name, port = address[0]
        played = CliRunner().invoke(app, ["bot", "maexchen", "--server", f"{host_name}:{port}",
                                          "--strategy", "bot:ismcts:sims=5", "--name", "anna",
                                          "--rounds", "2", "--seed", "3"])
    finally:
        done.set()
        thread.join(10)
    assert played.exit_code == 0, played.output + played.stderr
    assert "anna plays as 'ismcts:sims=5'" in played.output
    assert "2 rounds played" in played.output


async def silent(peer: Peer) -> None:
    await peer.expect("YOUR TURN")


async def rolls_silently(peer: Peer) -> None:
    peer.send(f"ROLL;{(await peer.expect('YOUR TURN'))[0]}")
    await peer.expect("ROLLED")


async def answers_wrongly(peer: Peer) -> None:
    peer.send(f"JOIN;{(await peer.expect('YOUR TURN'))[0]}")  # ignored: the turn times out


ROUNDS_BY_REASON = {
    # reason: (rolls, what the first player does, what the second does)
    "DID_NOT_TAKE_TURN": ([(3, 2)], silent, None),
    "DID_NOT_ANNOUNCE": ([(3, 2)], rolls_silently, None),
    "DID_NOT_TAKE_TURN after a wrong answer": ([(3, 2)], answers_wrongly, None),
    "SEE_BEFORE_FIRST_ROLL": ([(3, 2)], see, None),
    "ANNOUNCED_LOSING_DICE": ([(1, 3), (5, 5)], lambda p: roll_and_announce(p, "6,6"),
                              lambda p: roll_and_announce(p, "6,6")),
    "CAUGHT_BLUFFING": ([(1, 3)], lambda p: roll_and_announce(p, "6,6"), see),
    "SEE_FAILED": ([(6, 6)], roll_and_announce, see),
    "MIA": ([(2, 1)], roll_and_announce, None),
    "LIED_ABOUT_MIA": ([(3, 1)], lambda p: roll_and_announce(p, "2,1"), None),
}


@pytest.mark.parametrize("reason", sorted(ROUNDS_BY_REASON))
def test_the_rounds_log_records_every_loss_as_it_happened(reason):
    rolls, first_does, second_does = ROUNDS_BY_REASON[reason]

    async def script(first, second):
        await first_does(first)
        if second_does is not None:
            await second_does(second)

    kept = []
    lost, _, order = run(round_with(rolls, script, kept))
    reason = reason.split()[0]
    assert lost[-1] == reason
    log = kept[-1].table.to_json()
    replayed = Table.from_json(log).state
    assert replayed.is_over()
    losers = [order.index(name) for name in lost[0].split(",")]
    assert [replayed.outcome().scores[seat] for seat in losers] == [0.0] * len(losers)
    penalties = [e for e in log["events"] if e["type"] == "penalty"]
    if reason in {"CAUGHT_BLUFFING", "SEE_FAILED", "MIA", "LIED_ABOUT_MIA"}:
        assert penalties == []  # the rules decided it: the log's moves say why
    else:
        assert penalties == [{"seq": len(log["events"]) - 1, "type": "penalty",
                             "seat": losers[0], "reason": reason}]
