"""JSON Schemas (draft 2020-12) of the documents lookback prints with --json: `lookback schema
[COMMAND]` prints them; tests/test_schemas.py validates every command's output against its own.

Each document is an object with `schema_version` (json_output.py). A schema names every key a
document always has (required) with its type; keys may be added without a new schema version, so
objects stay open (additionalProperties is not restricted)."""

from __future__ import annotations

from .json_output import SCHEMA_VERSION

STR, INT, NUM, BOOL, NULL = ({"type": t} for t in ("string", "integer", "number", "boolean", "null"))
ANY_LIST = {"type": "array"}


def obj(**props: dict) -> dict:
    return {"type": "object", "required": sorted(props), "properties": props}


def arr(items: dict) -> dict:
    return {"type": "array", "items": items}


def nullable(schema: dict) -> dict:
    return {"anyOf": [schema, NULL]}


def document(title: str, **props: dict) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
            **obj(schema_version={"const": SCHEMA_VERSION}, **props)}


TRIGGER = obj(id=STR, ability=STR, source=STR, source_id=STR, subject=STR, subject_id=STR, controller=STR,
              look={"enum": ["back", "forward"]}, step=INT, state_read=INT, rule=nullable(STR), reasons=ANY_LIST)
STEP = obj(index=INT, kind=STR, events=arr(STR), triggers=arr(TRIGGER), stack=arr(STR), life=ANY_LIST,
           zones=ANY_LIST, controllers=ANY_LIST, resolved=ANY_LIST, fizzled=ANY_LIST, haunts=ANY_LIST,
           tapped=arr(STR), chosen_types=ANY_LIST, copies=ANY_LIST)
ANSWER_SET = obj(index=INT, edition=nullable(STR), unfinished=BOOL, steps=arr(STEP), triggers=arr(TRIGGER),
                 outcome=arr(STR), final_zones=ANY_LIST, final_life=ANY_LIST, trigger_counts=ANY_LIST,
                 haunt_links=ANY_LIST, violations=ANY_LIST, atoms=arr(STR))
NODE = {"$ref": "#/$defs/node"}
VERDICT = obj(file=STR, line=INT, column=INT, expectation=STR, status={"enum": ["PASS", "FAIL", "SKIP"]},
              evidence=STR)

SCHEMAS = {
    "run": document("lookback run --json", scenario=STR, edition=nullable(STR), driver=STR, horizon=INT,
                    complete=BOOL, cut_short=nullable(STR), answer_sets=nullable(INT), distinct_outcomes=nullable(INT),
                    models=arr(ANSWER_SET)),
    "check": document("lookback check --json",
                      runs=arr(obj(path=STR, edition=nullable(STR), cut_short=BOOL, bad_input=nullable(STR),
                                   verdicts=arr(VERDICT))),
                      summary=obj(scenarios=INT, passed=INT, failed=INT, skipped=INT, bad_input=INT, cut_short=INT)),
    "enumerate": document("lookback enumerate --json", scenario=STR, edition=nullable(STR), driver=STR,
                          complete=BOOL, exact=BOOL, cut_short=nullable(STR), distinct_outcomes=INT,
                          lines_of_play=INT, all_orders=BOOL, horizon=INT, line_of_play=STR,
                          outcomes=arr(obj(outcome=arr(STR), lines_of_play=INT, exact=BOOL, witness=ANSWER_SET))),
    "explain": {**document("lookback explain --json", atom=STR, holds_in={"enum": ["every", "some", "none"]},
                           edition=nullable(STR), horizon=INT, why=nullable(NODE), why_not=nullable(NODE),
                           cause=nullable(obj(rule=NODE, condition=NODE))),
                "$defs": {"node": {**obj(atom=STR, kind=STR),
                                   "properties": {"atom": STR, "kind": STR, "rules": arr(STR), "at": STR, "note": STR,
                                                  "repeated": BOOL, "children": arr(NODE)}}}},
    "conflicts": document("lookback conflicts --json",
                          conflicts=arr(obj(requirement=STR, satisfiable=BOOL, conflict=ANY_LIST, conflicts=ANY_LIST,
                                            every_conflict=BOOL, minimised=BOOL, solve_calls=INT, seconds=NUM))),
    "diff": document("lookback diff --json",
                     diffs=arr(obj(scenario=STR, status=STR, editions={"type": "object"}, only={"type": "object"},
                                   rules=ANY_LIST, cited=ANY_LIST))),
    "verify": document("lookback verify --json",
                       bounds=obj(players=INT, pieces=INT, cards=arr(STR), zones=arr(STR), max_damage=INT,
                                  actions=INT, horizon=INT, editions=arr(STR), life=arr(INT)),
                       verdicts=arr(obj(invariant=STR, rule=nullable(STR), where=STR, status=STR, evidence=STR)),
                       horizon_check=nullable(obj(complete=BOOL, open=STR, cut_short=BOOL)),
                       counterexamples=arr(obj(invariants=arr(STR), violations=arr(STR), scenario=STR)),
                       no_counterexample=BOOL, cut_short=BOOL, ground_seconds=NUM, solve_seconds=NUM),
    "error": document("the document of a command given --json that meets bad input",
                      error=obj(file=nullable(STR), line=nullable(INT), column=nullable(INT), message=STR)),
}
