"""Sharded searches (issue 22): the shards partition the situations, a search in shards gives the
same report here and on a local Dask cluster of two workers, a worker that dies is replaced, a
checkpoint resumes a run, and bad input (a foreign or tampered checkpoint, workers without Dask)
is said clearly."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import checkpoint as checkpoint_module
from pyclingo_bridge import distributed
from pyclingo_bridge import shards as shards_module
from pyclingo_bridge.cli import main
from pyclingo_bridge.distributed import DistributedError, run_shards
from pyclingo_bridge.generate import PERFORMABLE, Bounds, Grounding, scenario_text, situations
from pyclingo_bridge.shards import Shard, fixed_names, plan, shard_bounds

#: a few seconds of situations: one player, two of two cards, two zones (19 situations; one differs,
#: Innocent Blood cast with Mayhem Devil in play: tests/test_diff.py)
DIFF_BOUNDS = ["--players", "1", "--pieces", "2", "--cards", "mayhem_devil,innocent_blood",
               "--zones", "battlefield,hand", "--actions", "1", "--max-damage", "0"]
#: a second's worth of situations (the two cards in hand, no action: one situation a shard, 5 shards)
CHEAP_BOUNDS = ["--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder", "--zones", "hand",
                "--actions", "0"]
#: verify bounds with a planted invariant that some situation violates
VERIFY_BOUNDS = ["--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder", "--zones", "battlefield,hand",
                 "--max-damage", "0", "--steps", "4"]
PLANTED = "% a creature is never put into a graveyard (false: Murder does it)\n" \
          "violation(planted_no_death(O), T) :- holds(in_zone(O, graveyard), T), step(T), T > 0, " \
          "holds(in_zone(O, graveyard), T), not holds(in_zone(O, graveyard), T - 1).\n"


#: two watchers of alice (each "whenever a creature dies"), her three bears, bob's wipe
SIX_TRIGGERS = ("player(alice, 1). player(bob, 2). active_player(alice).\n"
                "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).\n"
                "card(bastion, bastion_of_remembrance, alice). init_zone(bastion, battlefield).\n"
                + "".join(f"card(g{i}, grizzly_bears, alice). init_zone(g{i}, battlefield).\n" for i in range(3))
                + "".join(f"card(l{i}, grizzly_bears, alice). init_zone(l{i}, library).\n" for i in range(3))
                + "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).\n")


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def _texts(bounds: Bounds, program: str = PERFORMABLE) -> list[str]:
    return [scenario_text(atoms) for atoms in situations(Grounding(bounds, program=program))]


def test_plan_orders_shards_by_size_then_names() -> None:
    shards = plan(Bounds(pieces=2, cards=("murder", "grizzly_bears")))
    assert [s.names for s in shards] == [("grizzly_bears",), ("murder",), ("grizzly_bears", "grizzly_bears"),
                                         ("grizzly_bears", "murder"), ("murder", "murder")]
    assert [s.index for s in shards] == list(range(5))
    assert fixed_names(shards[3]) == (":- not gen_name(1, grizzly_bears).\n:- not gen_name(2, murder).\n"
                                      ":- gen_used(3).\n")
    deeper = plan(Bounds(pieces=3))  # the default pool of five cards
    # five names alone are fewer than MIN_SHARDS: two names fixed, the 5 lists of one card exact, the
    # 15 of two a prefix, with any third piece sorted after them
    assert len(deeper) == 20 >= shards_module.MIN_SHARDS and [s.exact for s in deeper] == [True] * 5 + [False] * 15
    assert deeper[6].names == ("blood_artist", "endless_cockroaches")
    assert fixed_names(deeper[-1]) == (":- not gen_name(1, soul_warden).\n:- not gen_name(2, soul_warden).\n"
                                       ":- not gen_used(2).\n")
    prefix = next(s for s in deeper if s.names == ("blood_artist", "grizzly_bears"))
    assert shard_bounds(Bounds(pieces=3), prefix).cards == ("blood_artist", "grizzly_bears", "murder", "soul_warden")


# every list exact (depth 2: 9 groundings, slow), or the first card fixed (depth 1)
# slow (.ci/run): 3-4 s each, the README's command keeps the checkpoint refusals below
@pytest.mark.slow
@pytest.mark.parametrize("min_shards", [16, 2])
def test_shards_partition_the_situations(monkeypatch, min_shards: int) -> None:
    """Every situation of the whole generation is in exactly one shard (generate.lp sorts pieces by
    name first, so a situation's slots name its sorted cards)."""
    monkeypatch.setattr(shards_module, "MIN_SHARDS", min_shards)
    bounds = Bounds(players=1, pieces=2, cards=("grizzly_bears", "murder", "soul_warden"),
                    zones=("battlefield", "hand"), max_damage=0)
    shards = plan(bounds)
    assert len(shards) == (9 if min_shards == 16 else 3) and all(s.exact for s in shards) == (min_shards == 16)
    whole = _texts(bounds)
    parts = [_texts(shard_bounds(bounds, s), PERFORMABLE + fixed_names(s)) for s in shards]
    assert sum(len(p) for p in parts) == len(whole) > 20
    assert sorted(t for p in parts for t in p) == sorted(whole)
    assert all(parts)


@pytest.mark.slow
def test_a_shards_situations_are_counted_as_the_engine_generates_them() -> None:
    """shards.situation_count grounds the generator without the engine: per shard, as many
    situations as the generator grounded with the engine gives (lines whose script fails
    included), and at least the situations whose script can be performed."""
    bounds = Bounds(players=1, pieces=2, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
                    max_damage=1, horizon=3)
    counts = []
    for shard in plan(bounds):
        counts.append(shards_module.situation_count(bounds, shard))
        assert counts[-1] == len(_texts(shard_bounds(bounds, shard), fixed_names(shard))), shard
    assert sum(counts) > len(_texts(bounds)) > 20 and len(set(counts)) > 1


def _diffs(output: str) -> list:
    data = json.loads(output)
    return data["diffs"]


@pytest.fixture(scope="module")
def diff_here():
    """The diff of DIFF_BOUNDS in this process, which the runs on workers must repeat (computed once
    for the tests of the group below: about 10 s)."""
    return invoke("diff", "--generate", *DIFF_BOUNDS, "--json", "--no-progress")


@pytest.mark.slow  # a local Dask cluster and every situation diffed twice (about 20 s)
@pytest.mark.xdist_group("diff_here")
def test_diff_generate_same_report_on_two_workers(diff_here) -> None:
    here = diff_here
    there = invoke("diff", "--generate", *DIFF_BOUNDS, "--json", "--no-progress", "--workers", "2")
    assert here.exit_code == there.exit_code == 1, (here.output, there.output)  # a situation differs
    assert _diffs(here.output) == _diffs(there.output)
    assert sum(d["status"] == "DIFFERS" for d in _diffs(there.output)) == 1 and len(_diffs(there.output)) == 19
    shards = json.loads(there.output)["shards"]
    assert shards["where"] == "2 local worker process(es)" and shards["finished"] == shards["planned"] == 5
    assert "shards" not in json.loads(here.output)  # said only when asked for: the timings differ run to run
    # the text form says the same, for a second's worth of situations (CHEAP_BOUNDS: 5 shards too)
    text = invoke("diff", "--generate", *CHEAP_BOUNDS, "--no-progress", "--workers", "2").output
    assert "shards: 5 shard(s) run in 2 local worker process(es):" in text and " s median, " in text


@pytest.mark.slow  # three verify runs, one on a local Dask cluster (about 30 s)
def test_verify_same_report_on_two_workers_with_a_planted_counterexample(tmp_path: Path) -> None:
    planted = tmp_path / "planted.lp"
    planted.write_text(PLANTED)
    bounds = Bounds(players=1, pieces=2, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
                    max_damage=0, horizon=4, editions=("2006", "current"))  # verify's default: both
    one_call = json.loads(invoke("verify", *VERIFY_BOUNDS, "--with", str(planted), "--json", "--no-progress").output)
    here = invoke("verify", *VERIFY_BOUNDS, "--with", str(planted), "--json", "--no-progress", "--workers", "1")
    there = invoke("verify", *VERIFY_BOUNDS, "--with", str(planted), "--json", "--no-progress", "--workers", "2")
    assert here.exit_code == there.exit_code == 1, (here.output, there.output)
    a, b = json.loads(here.output), json.loads(there.output)
    for key in ("verdicts", "counterexamples", "horizon_check", "no_counterexample", "cut_short",
                "situations_checked"):
        assert a[key] == b[key], key
    assert a["situations_checked"] == sum(shards_module.situation_count(bounds, s) for s in plan(bounds))
    # the same verdicts as the one-call search (its witness may be another line)
    assert [(x["invariant"], x["status"]) for x in a["verdicts"]] == \
           [(x["invariant"], x["status"]) for x in one_call["verdicts"]]
    status = {x["invariant"]: x["status"] for x in a["verdicts"]}
    assert status["planted_no_death"] == "refuted" and list(status.values()).count("refuted") == 1
    assert "murder" in a["counterexamples"][0]["scenario"]


def _die_once(marker: str, shard: Shard) -> tuple[str, ...]:
    """A job whose worker dies the first time it runs shard 1 (the marker file remembers it)."""
    if shard.index == 1 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return shard.names


def _always_die(shard: Shard) -> tuple[str, ...]:
    if shard.index == 0:
        os._exit(1)
    return shard.names


@pytest.mark.slow  # local Dask clusters, a worker killed four times (about 20 s)
def test_a_dying_worker_is_replaced_then_its_shard_fails(tmp_path: Path) -> None:
    import functools

    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    shards = plan(Bounds(pieces=1, cards=("grizzly_bears", "murder", "soul_warden")))
    same = run_shards(functools.partial(_die_once, str(tmp_path / "died")), shards, fingerprint=lambda: "x",
                      workers=2)
    assert (tmp_path / "died").exists()  # the worker did die once
    assert same.complete and [r.result for r in same.runs] == [s.names for s in shards]
    failed = run_shards(_always_die, shards, fingerprint=lambda: "x", workers=2)
    # only the shard that kills its worker fails: no other shard waits on a worker (CI once saw
    # shard 2, queued behind shard 0, fail with it)
    assert not failed.complete and [r.shard.index for r in failed.failed] == [0]
    assert failed.failed[0].failed == f"its worker died {distributed.RETRIES + 1} times while running it"
    assert [r.result for r in failed.runs if not r.failed] == [s.names for s in shards[1:]]


@pytest.mark.slow  # a local Dask cluster (a few seconds)
def test_a_shard_is_handed_to_the_cluster_only_when_a_thread_is_free(monkeypatch) -> None:
    """Never more shards in the cluster than its threads: a shard queued on a worker would share
    the fate of the shard running there."""
    made = distributed.dask_client
    in_cluster: list[int] = []

    def counting_client(workers, scheduler):
        client, cluster = made(workers, scheduler)
        submit = client.submit

        def counted(*args, **kwargs):
            future = submit(*args, **kwargs)
            futures.append(future)
            in_cluster.append(sum(not f.done() for f in futures))
            return future
        futures: list = []
        client.submit = counted
        return client, cluster

    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    monkeypatch.setattr(distributed, "dask_client", counting_client)
    shards = plan(Bounds(pieces=1, cards=("grizzly_bears", "murder", "soul_warden", "blood_artist")))
    same = run_shards(_slow_names, shards, fingerprint=lambda: "x", workers=2)
    assert same.complete and [r.result for r in same.runs] == [s.names for s in shards]
    assert len(in_cluster) == len(shards) == 4 and max(in_cluster) <= 2


def _slow_names(shard: Shard) -> tuple[str, ...]:
    import time
    time.sleep(0.2)
    return shard.names


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["--workers", "2"]], ids=["here", "on-2-workers"])
def test_a_checkpoint_resumes_a_run_with_the_same_report(tmp_path: Path, workers: list[str]) -> None:
    """A run's checkpoint, cut after two shards as by a crash (the last line half written): the same
    command (here, or on a local cluster) skips them and reports what the whole run reports."""
    file = tmp_path / "run.ckpt"
    whole = invoke("diff", "--generate", *CHEAP_BOUNDS, "--json", "--no-progress", "--checkpoint", str(file))
    lines = file.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 5 and json.loads(lines[0])["run"]["command"] == "diff --generate"
    file.write_text("".join(lines[:3]) + lines[3][:40])  # two shards kept, the third cut off
    resumed = invoke("diff", "--generate", *CHEAP_BOUNDS, "--json", "--no-progress", "--checkpoint", str(file),
                     *workers)
    assert resumed.exit_code == whole.exit_code == 0, resumed.output
    assert _diffs(resumed.output) == _diffs(whole.output) and len(_diffs(whole.output)) == 5
    assert json.loads(resumed.output)["shards"]["from_checkpoint"] == 2
    assert len(file.read_text().splitlines()) == 1 + 5  # the cut line dropped, the three shards recorded
    again = invoke("diff", "--generate", *CHEAP_BOUNDS, "--no-progress", "--checkpoint", str(file))
    assert "no shard run; 5 from the checkpoint" in again.output


def test_a_checkpoint_of_another_run_or_tampered_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "run.ckpt"
    assert invoke("diff", "--generate", *CHEAP_BOUNDS, "--pieces", "1", "--checkpoint", str(file),
                  "--no-progress").exit_code == 0
    other = invoke("diff", "--generate", *CHEAP_BOUNDS, "--no-progress", "--checkpoint", str(file))
    assert other.exit_code == 2 and f"{file}:1:" in other.output and "checkpoint of another run" in other.output
    assert "Traceback" not in other.output
    # a stored answer that would build something else than the bridge's results
    lines = file.read_text().splitlines()
    row = json.loads(lines[1])
    row["result"] = checkpoint_module.encode(os.getcwd)  # pickled by reference: os.getcwd
    file.write_text("\n".join([lines[0], json.dumps(row)] + lines[2:]) + "\n")
    bad = invoke("diff", "--generate", *CHEAP_BOUNDS, "--pieces", "1", "--checkpoint", str(file), "--no-progress")
    assert bad.exit_code == 2 and f"{file}:2:" in bad.output and "may not hold posix.getcwd" in bad.output
    # nor any function of the bridge (a data class only: this one writes files)
    from pyclingo_bridge.vocabulary import store_cached
    row["result"] = checkpoint_module.encode(store_cached)
    file.write_text("\n".join([lines[0], json.dumps(row)] + lines[2:]) + "\n")
    bad = invoke("diff", "--generate", *CHEAP_BOUNDS, "--pieces", "1", "--checkpoint", str(file), "--no-progress")
    assert bad.exit_code == 2 and "may not hold pyclingo_bridge.vocabulary.store_cached" in bad.output


def test_workers_without_dask_say_how_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(DistributedError, match=r"pip install 'lookback\[distributed\]'"):
        distributed.dask_client(2, None)
    # and the command says it, exit 2, no traceback (the run in this process: the import fails here)
    from pyclingo_bridge import cli
    monkeypatch.setattr(cli, "guarded", lambda job, *args, **_: job(*args))
    result = invoke("diff", "--generate", *CHEAP_BOUNDS, "--pieces", "1", "--no-progress", "--workers", "2")
    assert result.exit_code == 2 and "pip install 'lookback[distributed]'" in result.output, result.output
    assert "Traceback" not in result.output


def test_shard_options_need_generate() -> None:
    result = invoke("diff", "--workers", "2", "--no-progress")
    assert result.exit_code == 2 and "use them with --generate" in result.output


@pytest.mark.slow  # a Dask scheduler and two workers started as a user starts them (about 20 s)
@pytest.mark.xdist_group("diff_here")
def test_an_existing_cluster_gives_the_same_report(tmp_path: Path, diff_here) -> None:
    """`dask scheduler` and `dask worker` started by hand (as dask-jobqueue or dask-kubernetes start
    them), then `--scheduler ADDRESS`: the report of the run in this process."""
    import shutil
    import subprocess
    import time

    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    assert dask is not None, "the distributed extra installs the dask command"
    address_file = tmp_path / "scheduler.json"
    env = dict(os.environ, DASK_LOGGING__DISTRIBUTED="error")
    scheduler = subprocess.Popen([dask, "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                                  str(address_file)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        for _ in range(100):
            if address_file.exists() and address_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        worker = subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        here = diff_here
        there = invoke("diff", "--generate", *DIFF_BOUNDS, "--json", "--no-progress", "--scheduler", address)
        assert here.exit_code == there.exit_code == 1, there.output
        assert _diffs(here.output) == _diffs(there.output)
        assert json.loads(there.output)["shards"]["where"].endswith(f"worker(s) of {address}")
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)


@pytest.mark.slow  # the client gives up on the address after 5 s
def test_an_unreachable_scheduler_is_said_clearly() -> None:
    result = invoke("diff", "--generate", *DIFF_BOUNDS, "--no-progress", "--scheduler", "tcp://127.0.0.1:9",
                    "--timeout", "30")
    assert result.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow  # an exploration here and on a local Dask cluster (about 30 s)
def test_an_exploration_on_two_workers_gives_the_same_outcomes_counts_and_witnesses(tmp_path: Path) -> None:
    """Two different "whenever a creature dies" watchers of alice, her three bears, one wipe: the
    bears' six triggers in 6! / (3! 3!) = 20 orders (each watcher's three interchangeable, CR
    603.3b), every order a state after the step that stacks them; explored with its frontiers of up
    to 20 states cut by state hash between two workers: the outcomes, the exact counts and the
    witness lines of the run in one process."""
    from pyclingo_bridge.explorer import explore
    from pyclingo_bridge.explorer_shards import MIN_STATES
    from pyclingo_bridge.scenario import load_scenario

    path = tmp_path / "six.lp"
    path.write_text(SIX_TRIGGERS)
    options = ("-c", "identical_orders=one")  # every order (interchangeable ones once) a state
    here = explore(load_scenario(str(path)), options=options)
    there = explore(load_scenario(str(path)), options=options, workers=2)
    assert max(here.frontier_sizes) >= MIN_STATES  # some frontier did go to the workers
    assert here.lines == there.lines == 20 and here.outcomes == there.outcomes  # 6! / (3! 3!)
    assert {e.outcome: e.lines for e in here.endings.values()} == {e.outcome: e.lines for e in there.endings.values()}
    assert [here.witness(e) for e in here.endings.values()] == [there.witness(e) for e in there.endings.values()]
    assert here.frontier_sizes == there.frontier_sizes


def test_a_failed_shard_leaves_verify_without_a_conclusion() -> None:
    """A shard that failed after its retries: the invariants are not settled, and the report says
    why (not a time limit)."""
    from pyclingo_bridge.distributed import ShardedRun, ShardRun
    from pyclingo_bridge.verify import UNDECIDED, render
    from pyclingo_bridge.verify_shards import ShardVerdicts, combine
    from pyclingo_bridge import verify as v

    bounds = Bounds(pieces=1, cards=("grizzly_bears", "murder"))
    chosen = v.choose(("two_zones",), v.invariants())
    shards = plan(bounds)
    fine = ShardVerdicts({"two_zones": "violation(two_zones(obj(c1,0)),0)"}, (), True, None, 0.1, 0.1, 7)
    run = ShardedRun([ShardRun(shards[0], fine, 1.0, 1.0),
                      ShardRun(shards[1], None, 0.0, 0.0, failed="its worker died 3 times while running it")],
                     planned=2)
    report = combine(bounds, chosen, run, horizon_check=False)
    assert report.cut_short and [x.status for x in report.verdicts] == [UNDECIDED]
    text = render(report)
    assert "NO CONCLUSION: 1 shard(s) failed (below)" in text and "--timeout" not in text
    assert "FAILED shard 2 (murder): its worker died 3 times while running it" in text
    assert "situations checked: 7 (the generator's, in the shards that finished;" in text


def test_a_failed_shard_is_said_as_why_diff_is_cut_short(monkeypatch) -> None:
    """diff --generate with a shard that failed after its retries: the summary names the failure,
    not a time limit, and the run exits 3."""
    from pyclingo_bridge import cli, edition_diff
    from pyclingo_bridge.distributed import ShardedRun, ShardRun

    shards = plan(Bounds(players=1, pieces=1, cards=("grizzly_bears", "murder")))
    failed = ShardRun(shards[1], None, 0.0, 0.0, failed="its worker died 3 times while running it")
    fine = ShardRun(shards[0], edition_diff.ShardDiffs((), cut_short=False), 1.0, 1.0)
    monkeypatch.setattr(edition_diff, "diff_generated",
                        lambda bounds, **_: edition_diff.GeneratedDiffs((), ShardedRun([fine, failed], planned=2)))
    monkeypatch.setattr(cli, "_in_guard", lambda job, *args, **_: job(*args))
    result = invoke("diff", "--generate", *CHEAP_BOUNDS, "--pieces", "1", "--no-progress", "--workers", "2")
    assert result.exit_code == 3, result.output
    assert "CUT SHORT: 1 shard(s) failed (below)" in result.output and "time limit" not in result.output
    assert "FAILED shard 2 (murder): its worker died 3 times while running it" in result.output
