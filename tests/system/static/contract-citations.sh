# The project stands alone: no tracked file cites the team's internal contract (`../shared/DESIGN.md`,
# "DESIGN §3", "(DESIGN.md §6)", …). What users rely on is written in, and pointed to, docs/*.md.
# Prints each offending file:line and fails; words that merely contain DESIGN are not citations.
set -uo pipefail
cd "${WP_REPO:?}" || exit 1
pattern='\.\./shared|\bDESIGN(\.md)?( ?§|\b)'
self=tests/system/static/contract-citations.sh
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git grep -I -n -E "$pattern" -- . ":(exclude)$self")
else
    hits=$(grep -rIn -E "$pattern" --exclude-dir=.build --exclude-dir=.git . | sed 's|^\./||' | grep -v "^$self:")
fi
if [ -n "$hits" ]; then
    echo "$hits" | cut -c1-200
    echo "$(echo "$hits" | wc -l) citation(s) of the internal contract; cite the project's docs (docs/*.md) instead"
    exit 1
fi
echo "no citation of the internal contract"
