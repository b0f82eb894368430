# static_call_sites.awk - x86-64 inline static calls, the part of the
# kernel's objtool that finds them: reads a compiler's assembly output
# (gcc or clang -S) and writes it back with
#
#  - every call, jump or conditional jump to a static call's trampoline
#    (ob_static_call_tramp_<name>) recorded in section ob_static_call_sites,
#    as objtool records .static_call_sites: the site's address and its
#    key's, each relative to the field that holds it
#    (struct ob_static_call_site, include/opsbench/static_call.h), so that
#    ob_static_call_update() patches the site itself to reach the target;
#  - every code section it uses aligned to a page and padded to a whole
#    number of pages, so that making a site's page writable for a patch
#    touches no other object's code (src/static_call.c keeps W^X).
#
#   awk -f scripts/static_call_sites.awk static_call.s >static_call.sites.s
# (the Makefile's rule for the x86-64 static_call strategy).

function text_section(line) {
	if (line ~ /^[ \t]*\.text[ \t]*$/)
		return "\t.text"
	if (line ~ /^[ \t]*\.section[ \t]+\.text[.a-zA-Z0-9_]*[ \t]*(,.*)?$/)
		return line
	return ""
}

BEGIN {
	page = 4096
	n = 0
	# Code before any directive is in .text: start it on a page.
	print "\t.text"
	print "\t.balign " page
	seen["\t.text"] = 1
	order[++nsec] = "\t.text"
}

{
	sec = text_section($0)
	if (sec != "") {
		print
		if (!(sec in seen)) {
			seen[sec] = 1
			order[++nsec] = sec
			print "\t.balign " page
		}
		next
	}
}

/^[ \t]*(callq?|jmpq?|j[a-z]+)[ \t]+ob_static_call_tramp_[A-Za-z0-9_]+(@PLT)?[ \t]*(#.*)?$/ {
	name = $2
	sub(/^ob_static_call_tramp_/, "", name)
	sub(/@PLT$/, "", name)
	label = ".Lob_static_call_site_" n++
	print label ":"
	print
	print "\t.pushsection ob_static_call_sites, \"a\", @progbits"
	print "\t.balign 4"
	print "\t.long " label " - ."
	print "\t.long ob_static_call_key_" name " - ."
	print "\t.popsection"
	next
}

{ print }

END {
	# Pad each code section to the end of its last page (int3).
	for (i = 1; i <= nsec; i++) {
		print order[i]
		print "\t.balign " page ", 0xcc"
	}
}
