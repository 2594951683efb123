#!/usr/bin/env python3
"""The conformance vectors (generated/vectors/) decided by a second JSON Schema implementation: Python's
`jsonschema`, as Debian packages it (python3-jsonschema; .ci/run installs it). It proves that the vectors and
the JSON Schemas they point at are usable from another language, with nothing of this package's code.

    python3 scripts/vectors.py [VECTORS_DIR]      (default: generated/vectors next to this script's folder)

For each case of each file of VECTORS_DIR/v1 and VECTORS_DIR/v2 (the JSON Schema Test Suite's form; each group
names its schema file), the schema file alone is asked about `data`:

  - a case without `rule` must be decided as its `valid` says;
  - a case with `rule` depends on a rule written as code (vectors/rules.json): the schema alone must accept its
    data (the rule decides the rest), whatever `valid` says;
  - formats are asserted, as the vectors ask (a case with `format` depends on one). A case whose `format` this
    build of jsonschema does not check is skipped, naming the format (Debian's build checks no `date-time`: it
    needs the rfc3339-validator module, which Debian does not package);
  - string lengths (`minLength`, `maxLength`) count UTF-16 code units, as the interface's service (JavaScript)
    and this package's validators do, and as docs/vectors.md tells every other implementation to do: JSON
    Schema itself counts characters (code points), which differ for characters beyond U+FFFF (an emoji is one
    code point, two UTF-16 units). The cases that depend on it are counted and reported.

Every file is also checked against vectors/vector.schema.json. Prints what was decided and skipped; exits 1
naming every case decided otherwise (and every file that is not a vector file), 2 when it cannot run.
"""

import json
import sys
from pathlib import Path

try:
    import jsonschema
    from jsonschema import validators
except ImportError:
    print("vectors.py: the jsonschema module is missing (Debian: apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(2)


def utf16_length(text):
    """The length of `text` in UTF-16 code units: a code point beyond U+FFFF is two."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def min_length(validator, minimum, instance, schema):
    if validator.is_type(instance, "string") and utf16_length(instance) < minimum:
        yield jsonschema.ValidationError(f"{instance!r} is shorter than {minimum} UTF-16 code units")


def max_length(validator, maximum, instance, schema):
    if validator.is_type(instance, "string") and utf16_length(instance) > maximum:
        yield jsonschema.ValidationError(f"{instance!r} is longer than {maximum} UTF-16 code units")


def has_long_characters(value):
    """Whether `value` holds a string (or key) whose UTF-16 length differs from its length in code points."""
    if isinstance(value, str):
        return any(ord(char) > 0xFFFF for char in value)
    if isinstance(value, list):
        return any(has_long_characters(item) for item in value)
    if isinstance(value, dict):
        return any(has_long_characters(key) or has_long_characters(item) for key, item in value.items())
    return False


def version_of_jsonschema():
    try:
        from importlib.metadata import version

        return version("jsonschema")
    except Exception:  # noqa: BLE001 - only for the report
        return "unknown"


def main(argv):
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "generated" / "vectors"
    files = sorted(root.glob("v*/*.json"))
    if not files:
        print(f"vectors.py: no vector files in {root}/v*/ (expected generated/vectors: run npm run generate)", file=sys.stderr)
        return 2

    meta = json.loads((root / "vector.schema.json").read_text("utf-8"))
    meta_validator = validators.validator_for(meta)(meta)
    schemas = {}
    validator_classes = {}
    checker = None
    counts = {"decided": 0, "agree": 0, "rule": 0, "long characters": 0, "long characters, otherwise decided by code points": 0}
    skipped = {}
    disagreements = []
    malformed = []

    for file in files:
        groups = json.loads(file.read_text("utf-8"))
        problems = sorted(meta_validator.iter_errors(groups), key=lambda e: list(e.path))
        if problems:
            malformed.append(f"{file.relative_to(root)}: {problems[0].message} at {list(problems[0].path)}")
            continue
        for group in groups:
            schema_path = (file.parent / group["schemaFile"]).resolve()
            if schema_path not in schemas:
                schema = json.loads(schema_path.read_text("utf-8"))
                cls = validators.validator_for(schema)
                if cls not in validator_classes:
                    validator_classes[cls] = validators.extend(cls, {"minLength": min_length, "maxLength": max_length})
                checker = cls.FORMAT_CHECKER
                schemas[schema_path] = (
                    validator_classes[cls](schema, format_checker=checker),
                    cls(schema, format_checker=checker),
                )
            utf16_validator, plain_validator = schemas[schema_path]
            for test in group["tests"]:
                where = f"{file.relative_to(root)}: {test['description']}"
                fmt = test.get("format")
                if fmt is not None and fmt not in checker.checkers:
                    skipped.setdefault(fmt, []).append(where)
                    continue
                counts["decided"] += 1
                expected = True if "rule" in test else test["valid"]
                if "rule" in test:
                    counts["rule"] += 1
                errors = list(utf16_validator.iter_errors(test["data"]))
                if has_long_characters(test["data"]):
                    counts["long characters"] += 1
                    if plain_validator.is_valid(test["data"]) != (not errors):
                        counts["long characters, otherwise decided by code points"] += 1
                if (not errors) == expected:
                    counts["agree"] += 1
                else:
                    said = errors[0].message if errors else "accepted"
                    disagreements.append(f"{where}: expected {'valid' if expected else 'invalid'}"
                                         f"{' (schema alone, rule ' + test['rule'] + ')' if 'rule' in test else ''}, got: {said[:300]}")

    total = counts["decided"] + sum(len(cases) for cases in skipped.values())
    print(f"vectors: {len(files)} files, {total} cases, decided by Python jsonschema {version_of_jsonschema()} "
          f"(Python {sys.version.split()[0]}), formats asserted, string lengths in UTF-16 code units")
    print(f"  agree: {counts['agree']} of {counts['decided']} decided "
          f"({counts['rule']} of them with a code rule: the schema alone accepts their data)")
    print(f"  strings longer in UTF-16 code units than in code points: {counts['long characters']} cases, "
          f"{counts['long characters, otherwise decided by code points']} of which counting code points would decide otherwise")
    for fmt, cases in sorted(skipped.items()):
        print(f"  skipped: {len(cases)} cases whose answer depends on the format \"{fmt}\", which this jsonschema does not check"
              f"{' (it needs the rfc3339-validator module, which Debian does not package)' if fmt == 'date-time' else ''}")
    for line in malformed:
        print(f"  NOT A VECTOR FILE: {line}")
    for line in disagreements:
        print(f"  DISAGREE: {line}")
    if malformed or disagreements:
        print(f"vectors: {len(disagreements)} cases decided otherwise, {len(malformed)} files not vector files")
        return 1
    print("vectors: every case decided agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
