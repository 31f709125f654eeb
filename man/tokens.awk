# tokens.awk - writes hw-r10kevctr.conf(5) from its template: each
# "@TOKEN name@" line becomes the token's heading, its name and usage as the
# agent's own rows give them (hw-r10kevctr-agent -H, read first as FILE
# "-H"). A row without a heading in the template, or a heading without a
# row, fails the build: the page lists exactly the tokens the agent takes.
# A binary lists every backend's tokens, built in or not (the config
# language is the same in every build), so every build makes one page.
#
#   awk -f tokens.awk -H-output TEMPLATE > PAGE
FNR == NR {
	name = $1
	usage = $0
	sub(/^[^ ]+ +/, "", usage)
	sub(/   \(backend [a-z]+(, not built in)?\)$/, "", usage)
	gsub(/\\/, "\\\\", usage)
	gsub(/-/, "\\-", usage)
	row[name] = usage
	order[++rows] = name
	next
}
/^@TOKEN [A-Za-z]+@$/ {
	name = substr($2, 1, length($2) - 1)
	if (!(name in row)) {
		printf "%s:%d: @TOKEN %s@: the agent has no such token\n",
		    FILENAME, FNR, name > "/dev/stderr"
		bad = 1
		next
	}
	print ".TP"
	printf ".BI %s \" %s\"\n", name, row[name]
	seen[name] = 1
	next
}
{ print }
END {
	for (i = 1; i <= rows; i++)
		if (!(order[i] in seen)) {
			printf "%s: no @TOKEN %s@ line for the agent's token %s\n",
			    FILENAME, order[i], order[i] > "/dev/stderr"
			bad = 1
		}
	exit bad
}
