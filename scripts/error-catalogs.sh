#!/bin/sh
# Re-extract the error messages of the engine and the games into the "errors" catalogs,
# merge them into the sv/da/en translations and compile them. Run from the project root
# after adding or changing a message; then translate the new entries in the .po files
# (tests/test_messages.py fails until every message has a Swedish and a Danish text).
set -eu
BIN=${BIN:-.venv/bin}
LOCALE=src/kastkopp/locale
"$BIN/pybabel" extract -F babel-errors.cfg --no-location --sort-output --omit-header \
    -k KastkoppError -k IllegalAction -k RuleError -k StaleAction -k TableError -k AccountError \
    -k NotAuthenticated -k ChatError -k HintError -k ReviewError -k LogError -k Message -k term \
    -k Unreadable -k NotYourTurn -k GameOver -k NotFound -k TableNotFound \
    -k pterm:1c,2 -k say -k spoken:2 -k marked -k rule:2 \
    -o "$LOCALE/errors.pot" . >/dev/null
for lang in sv da; do  # English is the templates themselves
    po="$LOCALE/$lang/LC_MESSAGES/errors.po"
    if [ -f "$po" ]; then
        "$BIN/pybabel" update -D errors -i "$LOCALE/errors.pot" -d "$LOCALE" -l "$lang" \
            --ignore-obsolete --no-fuzzy-matching >/dev/null
    else
        "$BIN/pybabel" init -D errors -i "$LOCALE/errors.pot" -d "$LOCALE" -l "$lang" >/dev/null
    fi
done
"$BIN/pybabel" compile -D errors -d "$LOCALE" --statistics
