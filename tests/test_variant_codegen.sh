#!/usr/bin/env bash
# test_variant_codegen.sh - the build variant is really in the machine code:
# in a retpoline (or rethunk, srso) build no strategy object keeps an indirect call
# or jump and every one goes through this project's __x86_indirect_thunk_*
# (which the library defines), and icall_wrapper compares before calling; in
# the other builds the indirect calls are plain and INDIRECT_CALL_* compares
# nothing (icall_wrapper is default_ops).  A rethunk (srso) build has no "ret" left
# in its strategies (each is a jump to __x86_return_thunk); an ibt build
# starts every function reached through a pointer (the ops, a strategy's
# build/lookup/run) with endbr64, and the others have none.
#
# Code generation as the kernel's (docs/variants.md): no NOP inside any
# function of the measured code (loops and jump targets unaligned; what
# pads a function's end is never run) but the 6.12 LSM hook's 11 jump-label
# NOPs; in the kernel-based builds no frame pointer, ftrace's 5-byte entry
# NOP at every function and no SSE or MMX register in the measured code or
# the kernel code it calls (the kernel's -mno-sse ...); in rethunk and
# srso the indirect thunks return through __x86_return_thunk; static_call
# records each of its calls of a trampoline as an inline call site, which
# ob_static_call_update() patches to call the target itself
# (tests/test_static_call.c checks the patched bytes at run time), and
# static_call_tramp calls the trampolines.
#
#   OPSBENCH_BUILD=build/x86_64-gcc-retpoline OPSBENCH_VARIANT=retpoline tests/test_variant_codegen.sh
set -u
cd "$(dirname "$0")/.."
build=${OPSBENCH_BUILD:?}
variant=${OPSBENCH_VARIANT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

objs=("$build"/obj/src/strategies/*.o)
if [[ $(uname -m) != x86_64 || ! -e ${objs[0]} ]] || ! command -v objdump >/dev/null; then
	echo "[  SKIPPED ] x86-64 objects and objdump needed"
	finish "variant codegen"
fi

# Every function of the measured code (the strategies of both case studies).
measured=("${objs[@]}" "$build"/obj/src/regulator/strategies/*.o)
# fn_insns OBJ...: "function<TAB>instruction bytes<TAB>mnemonic..." for each
# instruction, without the __cfi_ preambles (kcfi's hash, before the entry).
fn_insns() {
	objdump -d "$@" | awk -F'\t' '
		/^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
		fn !~ /^__cfi_/ && /^ +[0-9a-f]+:\t/ && NF >= 3 { print fn "\t" $2 "\t" $3 }'
}
# inner_nops OBJ...: the NOPs inside functions, that is, followed by an
# instruction of the same function; the first is a kernel-based build's
# entry NOP (after endbr64 in ibt) and is not counted.  One line each.
inner_nops() {
	fn_insns "$@" | awk -F'\t' '
		$1 != fn { fn = $1; n = 0; pend = "" }
		{ n++ }
		n == 1 && $3 ~ /^endbr64/ { n = 0; next }
		n == 1 && $2 ~ /^0f 1f 44 00 / { next }
		fn ~ /_k612_security_inode_permission$/ && $3 ~ /^(nopl|xchg +%ax,%ax)/ { next }
		$3 ~ /^(nop|xchg +%ax,%ax|data16|cs nop|ds nop)/ { pend = pend fn ": " $3 "\n"; next }
		{ printf "%s", pend; pend = "" }'
}
check "$variant: no NOP inside the measured functions (no loop or jump alignment)" \
	bash -c "$(declare -f fn_insns inner_nops); out=\$(inner_nops ${measured[*]}); echo \"\$out\" | head; [[ -z \$out ]]"
# The 6.12 LSM hook's static-key slots: 7 jump labels of 2 bytes, 4 of 5 (component.h).
lsm_slots() {
	fn_insns "$build/obj/src/strategies/direct.o" |
		awk -F'\t' '$1 != "direct_k612_security_inode_permission" { next } { k++ }
			k == 1 && $3 ~ /^endbr64/ { k = 0; next } k == 1 { next }
			$2 ~ /^66 90 *$/ { n2++ } $2 ~ /^0f 1f 44 00 00 *$/ { n5++ }
			END { print n2 + 0, n5 + 0 }'
}
check "$variant: the 6.12 LSM hook has 7 two-byte and 4 five-byte jump-label NOPs" \
	bash -c "$(declare -f fn_insns lsm_slots); build='$build'; out=\$(lsm_slots); echo \"\$out\"; [[ \$out == '7 4' ]]"
if [[ $variant == plain ]]; then
	check "plain: no entry NOP" \
		bash -c "$(declare -f fn_insns); [[ \$(fn_insns ${objs[*]} | awk -F'\\t' '\$1 != fn { fn = \$1; if (\$2 ~ /^0f 1f 44 00 /) n++ } END { print n + 0 }') == 0 ]]"
else
	# The frame setup that CONFIG_FRAME_POINTER would put in most functions.
	# gcc 12 sets one up in step_into, the kernel's and the model's alike,
	# and in lookup_in (the tests' entry, not measured), which realigns the
	# 8-byte aligned stack for the nameidata.
	check "$variant: no frame pointer set up in the strategies (but step_into, as the kernel's)" \
		bash -c "[[ \$(objdump -d --no-show-raw-insn ${objs[*]} | awk '/>:\$/ { fn = \$0 } /\tpush +%rbp\$/ { p = 1; next } p && /\tmov +%rsp,%rbp\$/ && fn !~ /_(step_into|lookup_in)>:/ { n++ } { p = 0 } END { print n + 0 }') == 0 ]]"
	kernel_code=("${measured[@]}" "$build"/obj/src/component.o "$build"/obj/src/personality.o)
	check "$variant: no SSE or MMX register in the measured code or the kernel code it calls" \
		bash -c "out=\$(objdump -d --no-show-raw-insn ${kernel_code[*]} | grep -E '%(x|y|z)mm[0-9]|%mm[0-9]'); echo \"\$out\" | head -5; [[ -z \$out ]]"
	check "$variant: every function starts with ftrace's 5-byte NOP (after endbr64 in ibt)" \
		bash -c "$(declare -f fn_insns); fn_insns ${measured[*]} | awk -F'\\t' '
			\$1 != fn { fn = \$1; k = 0; fns++ } { k++ }
			k == 1 && \$3 ~ /^endbr64/ { k = 0; next }
			k == 1 && \$2 !~ /^0f 1f 44 00 [0-9a-f][0-9a-f] *\$/ { print fn \": \" \$3; bad++ }
			END { print fns + 0, \"functions\"; exit !(fns > 0 && bad == 0) }'"
fi

if [[ $variant == retpoline || $variant == rethunk || $variant == srso ]]; then
	check "retpoline: no indirect call or jump left in the strategies" \
		bash -c "[[ \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '(call|jmp) +\\*') == 0 ]]"
	check "retpoline: the strategies call the thunks" bash -c "(( \$(objdump -dr ${objs[*]} | grep -c __x86_indirect_thunk_) > 0 ))"
	check "retpoline: the library defines every thunk it needs" \
		bash -c "nm '$build/libopsbench.a' | grep -q ' T __x86_indirect_thunk_r11' && nm '$build/libopsbench.a' | grep -q ' T __x86_indirect_thunk_rax'"
	check "retpoline: icall_wrapper calls its known targets directly" bash -c "(( \$(objdump -d '$build/obj/src/strategies/icall_wrapper.o' | grep -cE 'call +[0-9a-f]+ <[a-z_]*(default|casefold|generation)_d_[a-z]+>') > 0 ))"
else
	check "$variant: the strategies make plain indirect calls" bash -c "(( \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '(call|jmp) +\\*') > 0 ))"
	check "$variant: no thunk is called" bash -c "[[ \$(objdump -dr ${objs[*]} | grep -c __x86_indirect_thunk_) == 0 ]]"
	check "$variant: icall_wrapper is default_ops (INDIRECT_CALL compares only under retpoline)" \
		bash -c "[[ \$(objdump -d '$build/obj/src/strategies/icall_wrapper.o' | grep -cE 'call +[0-9a-f]+ <[a-z_]*(default|casefold|generation)_d_[a-z]+>') == 0 ]]"
fi
if [[ $variant == rethunk || $variant == srso ]]; then
	check "rethunk: no ret left in the strategies" bash -c "[[ \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '[[:space:]]retq?[[:space:]]*\$') == 0 ]]"
	check "rethunk: returns jump to the library's __x86_return_thunk" \
		bash -c "(( \$(objdump -dr ${objs[*]} | grep -c __x86_return_thunk) > 0 )) && nm '$build/libopsbench.a' | grep -q ' T __x86_return_thunk'"
else
	check "$variant: the strategies return with ret" bash -c "(( \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '[[:space:]]retq?[[:space:]]*\$') > 0 ))"
fi
thunk_obj=$build/obj/src/arch/x86_64/retpoline.o
thunk_asm() { objdump -d --no-show-raw-insn "$thunk_obj" | awk '/<__x86_return_thunk>:$/ { on = 1; next } /^$/ { on = 0 } on'; }
# ind_thunk_ends: the instruction after each indirect thunk's "mov %reg,(%rsp)".
ind_thunk_ends() {
	objdump -d --no-show-raw-insn "$thunk_obj" |
		awk '/<__x86_indirect_thunk_[a-z0-9]+>:$/ { on = 1; next } /^$/ { on = 0 }
		     on && m { print; m = 0 } on && /\tmov +%[a-z0-9]+,\(%rsp\)$/ { m = 1 }'
}
if [[ $variant == rethunk || $variant == srso ]]; then
	check "$variant: each indirect thunk ends in jmp __x86_return_thunk (the kernel's RET)" \
		bash -c "$(declare -f ind_thunk_ends); thunk_obj='$thunk_obj'; out=\$(ind_thunk_ends); echo \"\$out\" | head -3;
			[[ \$(echo \"\$out\" | grep -c .) == 15 && \$(echo \"\$out\" | grep -cE 'jmp +[0-9a-f]+ <__x86_return_thunk>') == 15 ]]"
elif [[ $variant == retpoline ]]; then
	check "retpoline: each indirect thunk ends in ret" \
		bash -c "$(declare -f ind_thunk_ends); thunk_obj='$thunk_obj'; out=\$(ind_thunk_ends);
			[[ \$(echo \"\$out\" | grep -c .) == 15 && \$(echo \"\$out\" | grep -cE '[[:space:]]retq?[[:space:]]*\$') == 15 ]]"
fi
if [[ $variant == srso ]]; then
	check "srso: the return thunk calls a helper that drops its return address (Safe RET)" \
		bash -c "$(declare -f thunk_asm); thunk_obj='$thunk_obj'; thunk_asm | grep -qE 'call ' &&
			objdump -d --no-show-raw-insn '$thunk_obj' | grep -qE 'lea +0x8\(%rsp\),%rsp'"
elif [[ $variant == rethunk ]]; then
	check "rethunk: the return thunk is a plain ret" \
		bash -c "$(declare -f thunk_asm); thunk_obj='$thunk_obj'; ! thunk_asm | grep -qE 'call ' && thunk_asm | grep -qE 'ret'"
fi

# static_call's and static_call_tramp's lookup and loops reach every op by
# a direct call to its trampoline, under every variant: no indirect call and
# no thunk there.  static_call's are inline call sites: every one recorded
# in ob_static_call_sites (patched at attach time) and its code in pages of
# its own; static_call_tramp's stay calls of the trampolines.
walk_fns() { # object strategy: the disassembly of its <strategy>_{lookup,run*} functions
	objdump -dr --no-show-raw-insn "$1" |
		awk -v s="$2" '/>:$/ { keep = ($0 ~ "<" s "_(lookup|run[a-z0-9_]*)>:$") } keep'
}
tramp_calls='call +[0-9a-f]+ <ob_static_call_tramp_(ool_)?(d_hash|d_compare|d_revalidate|permission)>|R_X86_64_PLT32[[:space:]]+ob_static_call_tramp_(ool_)?(d_hash|d_compare|d_revalidate|permission)'
for s in static_call static_call_tramp; do
	o=$build/obj/src/strategies/$s.o
	check "$variant: $s's walk calls the op trampolines directly" \
		bash -c "$(declare -f walk_fns); (( \$(walk_fns '$o' $s | grep -cE '$tramp_calls') > 0 ))"
	check "$variant: $s's walk has no indirect call and no thunk" \
		bash -c "$(declare -f walk_fns); [[ \$(walk_fns '$o' $s | grep -cE '(call|jmp) +\\*|__x86_indirect_thunk') == 0 ]]"
done
sc_obj=$build/obj/src/strategies/static_call.o
# Relocations of the trampolines in the code, of the keys in the site table.
tramp_relocs() { objdump -r "$1" | awk '/^RELOCATION RECORDS FOR \[/ { sec = $4 } sec ~ /text/ && $3 ~ /^ob_static_call_tramp_/' | wc -l; }
site_relocs() { objdump -r "$1" | awk '/^RELOCATION RECORDS FOR \[/ { sec = $4 } sec == "[ob_static_call_sites]:" && $3 ~ /^ob_static_call_key_/' | wc -l; }
check "$variant: static_call records every call of a trampoline as an inline call site" \
	bash -c "$(declare -f tramp_relocs site_relocs); n=\$(tramp_relocs '$sc_obj'); echo \"\$n calls, \$(site_relocs '$sc_obj') sites\";
		(( n > 0 )) && [[ \$(site_relocs '$sc_obj') == \$n ]]"
# own_pages OBJ: each code section page-aligned, a whole number of pages.
own_pages() {
	local n=0 name size align
	while read -r _ name size _ _ _ align; do
		[[ $align == '2**12' ]] && (( 16#$size % 4096 == 0 )) || { echo "$name: $size bytes, $align"; return 1; }
		n=$((n + 1))
	done < <(objdump -h "$1" | grep -E '^ +[0-9]+ \.text')
	(( n > 0 ))
}
check "$variant: static_call's code has pages of its own (W^X patching)" \
	bash -c "$(declare -f own_pages); own_pages '$sc_obj'"
check "$variant: static_call_tramp records no call site" \
	bash -c "! objdump -h '$build/obj/src/strategies/static_call_tramp.o' | grep -q ob_static_call_sites"

# The functions reached through pointers: the ops and the struct strategy's.
indirect_targets='<([a-z_]+_(build|lookup|run)|[a-z_]*(default|casefold|generation)_d_[a-z]+)>:$'
if [[ $variant == kcfi ]]; then
	# clang's check: "mov $-hash,%r10d; add -0x4(%reg),%r10d; je 1f; ud2; 1: call *%reg".
	check "kcfi: every indirect call in the strategies is checked (ud2 just before it)" \
		bash -c "(( \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE 'call +\\*') > 0 )) &&
			[[ \$(objdump -d --no-show-raw-insn ${objs[*]} |
			   awk '/call +\\*/ { if (prev !~ /ud2/) n++ } { prev = \$0 } END { print n + 0 }') == 0 ]]"
	check "kcfi: every function reached through a pointer has its type hash (__cfi_ preamble)" \
		bash -c "nm ${objs[*]} | grep -qE ' __cfi_[a-z_]+_default_d_hash\$' &&
			[[ \$(nm ${objs[*]} | grep -v ' __cfi_' | grep -cE ' [tT] ([a-z_]+_(build|lookup|run)|[a-z_]*(casefold|generation)_d_[a-z]+)\$') -le \
			   \$(nm ${objs[*]} | grep -cE ' [tT] __cfi_([a-z_]+_(build|lookup|run)|[a-z_]*(casefold|generation)_d_[a-z]+)\$') ]]"
else
	check "$variant: no kCFI check in the strategies" bash -c "[[ \$(nm ${objs[*]} | grep -c ' __cfi_') == 0 ]]"
fi
if [[ $variant == ibt ]]; then
	check "ibt: every function reached through a pointer starts with endbr64" \
		bash -c "(( \$(objdump -d --no-show-raw-insn ${objs[*]} | grep -cE '$indirect_targets') > 0 )) &&
			[[ \$(objdump -d --no-show-raw-insn ${objs[*]} |
			   awk '/$indirect_targets/ { getline; if (\$0 !~ /endbr64/) n++ } END { print n + 0 }') == 0 ]]"
else
	check "$variant: no endbr64 in the strategies" bash -c "[[ \$(objdump -d ${objs[*]} | grep -c endbr64) == 0 ]]"
fi
finish "variant codegen"
