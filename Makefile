# opsbench - microbenchmarks for method dispatch in kernel-style C.
# `make help` lists the targets.

# ---- configuration (override on the command line) ----

ARCH		?= $(shell uname -m | sed -e 's/aarch64/arm64/')
HOST_ARCH	:= $(shell uname -m | sed -e 's/aarch64/arm64/')
# Settings that name one value take one word: the checks below use
# $(filter), which would let a list through where one of its words fits.
ONE_WORD	:= ARCH VARIANT LINK_ORDER BENCH_BUILD PROFILE GEOMETRY
$(foreach v,$(ONE_WORD),$(if $(word 2,$($(v))),$(error $(v)='$(strip $($(v)))': expected one word)))

# Compiler: gcc by default; `make CC=clang` builds with clang (and clang++).
# ARCH=arm64 on another machine cross-builds with aarch64-linux-gnu-gcc/g++.
ifeq ($(ARCH)-$(HOST_ARCH),arm64-x86_64)
CROSS		:= aarch64-linux-gnu-
endif
# VARIANT=kcfi builds with the newest clang >= 16 there is (KCFI_CC).
KCFI_CLANGS	:= clang-19 clang-18 clang-17 clang-16
KCFI_CC		?= $(firstword $(foreach c,$(KCFI_CLANGS),$(if $(shell command -v $(c) 2>/dev/null),$(c))))
ifeq ($(VARIANT)-$(origin CC),kcfi-default)
ifeq ($(KCFI_CC),)
$(error VARIANT=kcfi needs clang >= 16 ($(KCFI_CLANGS)); `make deps-kcfi` installs clang-19 with apt-get)
endif
CC		:= $(KCFI_CC)
endif
CC		:= $(if $(filter default,$(origin CC)),$(CROSS)gcc,$(CC))
# clang-N pairs with clang++-N.
CXX		:= $(if $(filter default,$(origin CXX)),$(if $(filter clang%,$(notdir $(CC))),$(subst clang,clang++,$(CC)),$(CROSS)g++),$(CXX))
AR		:= $(if $(filter default,$(origin AR)),$(CROSS)ar,$(AR))
ifeq ($(filter x86_64 arm64,$(ARCH)),)
$(error ARCH=$(ARCH): expected x86_64 or arm64)
endif
# Optimisation and debug info of every build.
OPT		?= -O2 -g
# Extra flags added to every compile.
EXTRA_CFLAGS	?=

CCNAME		:= $(notdir $(firstword $(CC)))
# What every output records as the build's source (opsbench/build.h).
OB_COMMIT	:= $(or $(shell git describe --always --dirty --abbrev=12 2>/dev/null),unknown)

# Code generation (VARIANT=plain|kernel|retpoline), each its own build tree:
#   plain      a user-space -O2 build, as before
#   kernel     the kernel's flags that change code generation:
#              -fno-strict-aliasing -fno-common; on x86-64 -mno-red-zone,
#              -fno-pie, no frame pointers (ORC) and ftrace's entry NOP
#              (KERNEL_FLAGS_x86_64 below); arm64 keeps frame pointers
#              and runs ftrace's two entry NOPs
#   retpoline  kernel, and every indirect call and jump through this
#              project's own thunks (src/arch/x86_64/retpoline.S), with
#              OB_RETPOLINE (CONFIG_MITIGATION_RETPOLINE): only here does
#              INDIRECT_CALL_* compare, as in the kernel.  x86-64 only.
#   rethunk    retpoline, and every return through __x86_return_thunk
#              (-mfunction-return=thunk-extern; the thunk is "ret; int3", the
#              cheapest case), the indirect thunks' own too (OB_RETHUNK).
#              x86-64, gcc (clang >= 15).
#   srso       rethunk, with the return thunk of the kernel's "Safe RET"
#              mitigation of AMD's SRSO (a call to a helper that drops its
#              own return address: every return mispredicted), as this
#              machine's kernel runs.  x86-64, gcc.
#   ibt        kernel with -fcf-protection=branch: endbr64 at every function
#              that may be reached indirectly (the CPU here may not enforce
#              IBT: the cost measured is the instruction and its bytes).
#   kcfi       kernel, built by clang >= 16 with -fsanitize=kcfi: every
#              function reachable through a pointer carries its type's hash,
#              and every indirect call compares it first (ud2 on a mismatch,
#              as CONFIG_CFI_CLANG).  x86-64.
#   bti-pac    arm64's: kernel with -mbranch-protection=standard, a BTI
#              landing pad at every function reachable indirectly and PAC
#              signing of every saved return address (paciasp/autiasp), as
#              CONFIG_ARM64_BTI_KERNEL and CONFIG_ARM64_PTR_AUTH_KERNEL.
#              arm64 only (run under qemu-aarch64 -cpu max here; see below
#              for why BTI is not enforced in Debian 12's executables).
VARIANTS	:= plain kernel retpoline rethunk srso ibt kcfi bti-pac
VARIANTS_x86_64	:= plain kernel retpoline rethunk srso ibt kcfi
VARIANTS_arm64	:= plain kernel bti-pac
VARIANT		?= plain
ifeq ($(filter $(VARIANTS),$(VARIANT)),)
$(error VARIANT=$(VARIANT): expected one of $(VARIANTS))
endif
ifeq ($(filter $(VARIANTS_$(ARCH)),$(VARIANT)),)
$(error VARIANT=$(VARIANT) is not built for ARCH=$(ARCH): its variants are $(VARIANTS_$(ARCH)))
endif
ifneq ($(filter rethunk srso,$(VARIANT)),)
ifneq ($(filter clang%,$(CCNAME)),)
$(error VARIANT=$(VARIANT): needs gcc (clang has -mfunction-return only from version 15))
endif
endif
# The kernel's flags of each architecture.  x86-64: no frame pointers (the
# distributions' kernels unwind with ORC; one with CONFIG_FRAME_POINTER would
# add -fno-omit-frame-pointer -fno-optimize-sibling-calls), not
# position-independent (-fno-PIE), no red zone, and ftrace's 5-byte NOP at
# every function's entry (KERNEL_ENTRY_NOP).  arm64 kernels keep frame
# pointers (their unwinder walks the frame records), and ftrace's entry is
# two NOPs at every function (after "bti c" where there is one): 6.1's
# -fpatchable-function-entry=2; 6.12's DYNAMIC_FTRACE_WITH_CALL_OPS gives
# =4,2, the same two run at the entry and two before it that are never run.
KERNEL_FLAGS_x86_64 = -fno-strict-aliasing -fno-common -mno-red-zone -fno-pie $(call kernel_entry_nop,$(1))
KERNEL_FLAGS_arm64 = -fno-strict-aliasing -fno-common -fno-omit-frame-pointer -fpatchable-function-entry=2
# ftrace's entry NOP, the one instruction the kernel runs at each function's
# entry once ftrace has turned its "call __fentry__" into a 5-byte NOP.
# gcc: -pg -mfentry -mnop-mcount emits that NOP ("nopl 0x0(%rax,%rax,1)"),
# -mrecord-mcount lists it in __mcount_loc as the kernel's build does; no
# mcount symbol is needed.  (-mnop-mcount refuses PIC, hence -fno-pie and
# the -no-pie link; -pg refuses an explicit -fomit-frame-pointer but omits
# the frame pointer with -mfentry, as the kernel's build relies on.)  clang
# has no -mnop-mcount on x86-64: -fpatchable-function-entry=5, which it
# emits as one 5-byte NOP, the same instruction.  (6.12's CALL_PADDING adds
# -fpatchable-function-entry=16,16: 16 bytes before the entry, never run.)
kernel_entry_nop = $(if $(filter clang%,$(1)),-fpatchable-function-entry=5 -fomit-frame-pointer,-pg -mfentry -mnop-mcount -mrecord-mcount)
VARIANT_kernel	:= $(call KERNEL_FLAGS_$(ARCH),$(CCNAME))
VARIANT_retpoline := $(VARIANT_kernel) -DOB_RETPOLINE \
		   $(if $(filter clang%,$(CCNAME)),-mretpoline-external-thunk,\
		     -mindirect-branch=thunk-extern -mindirect-branch-register)
VARIANT_rethunk	:= $(VARIANT_retpoline) -mfunction-return=thunk-extern -DOB_RETHUNK
VARIANT_srso	:= $(VARIANT_rethunk) -DOB_SRSO
VARIANT_ibt	:= $(VARIANT_kernel) -fcf-protection=branch
VARIANT_kcfi	:= $(call KERNEL_FLAGS_$(ARCH),clang) -fsanitize=kcfi -DOB_KCFI
# BTI is in the code but not enforced in Debian 12's executables: its arm64
# crt1.o has no BTI note and no landing pad at _start, so the linker leaves
# the executable unmarked (forcing the mark with -z force-bti makes it die
# with SIGILL at _start under qemu -cpu max).  PAC is live either way.
VARIANT_bti-pac	:= $(VARIANT_kernel) -mbranch-protection=standard
ifeq ($(VARIANT),kcfi)
ifneq ($(shell test "$$($(CC) -dumpversion 2>/dev/null | cut -d. -f1)" -ge 16 2>/dev/null && echo ok),ok)
$(error VARIANT=kcfi: CC=$(CC) is not clang >= 16 (-fsanitize=kcfi); leave CC unset to use $(or $(KCFI_CC),clang-19 from `make deps-kcfi`))
endif
endif
VARIANT_CFLAGS	:= $(VARIANT_$(VARIANT)) -DOB_VARIANT='"$(VARIANT)"'
# Executables of the x86-64 kernel-based builds are not position-independent.
VARIANT_LDFLAGS	:= $(if $(filter-out plain,$(VARIANT)),$(if $(filter x86_64,$(ARCH)),-no-pie))
# LINK_ORDER=reverse links the library's objects, and the suite's, in the
# other order: the same machine code at other addresses, each tree of its
# own, to see whether a result moves with the layout (docs/method.md#the-layout).
LINK_ORDER	?=
ifneq ($(filter-out reverse,$(LINK_ORDER)),)
$(error LINK_ORDER=$(LINK_ORDER): expected reverse, or nothing for the usual order)
endif
reverse_words	= $(if $(1),$(call reverse_words,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
# The measured code is linked before the program's own objects, whole, its
# first object text_start.S on a page: the harness's size never moves it
# (docs/method.md#the-layout).  The harness keeps its functions out of the
# .text.unlikely, .text.startup and .text.hot input sections, which the
# linker places ahead of all .text (gcc; clang splits nothing by default).
# text_start.S is the first object of every program's link, outside the
# archive, so that a layout suite can put a padded copy in its place.
link_lib	= $(filter %/text_start.o,$(1)) -Wl,--whole-archive $(filter %.a,$(1)) -Wl,--no-whole-archive
prog_objs	= $(filter-out %/text_start.o,$(filter %.o,$(1)))
layout_objs	= $(filter-out %/text_pad.o,$(call prog_objs,$(1)))
# make bench's layouts (docs/method.md#the-layout): layout N's suite,
# opsbench-suite-layoutN, is the same objects relinked with the measured
# code moved by N * LAYOUT_PAD bytes (21 cache lines: other cache sets and
# page offsets), and for odd N linked in the other order; layout 0 is
# opsbench-suite itself.  LAYOUTS= (none) runs every block in the usual layout.
layout_flip	= $(filter 1 3 5 7,$(1))
xor		= $(if $(1),$(if $(2),,x),$(if $(2),x))
LAYOUTS		:= 1 2 3
LAYOUT_PAD	:= 1344
ifneq ($(filter-out 1 2 3 4 5 6 7,$(LAYOUTS)),)
$(error LAYOUTS=$(LAYOUTS): expected layout numbers 1..7, or nothing for the usual layout alone)
endif
HARNESS_TEXT	:= $(if $(filter clang%,$(CCNAME)),,-fno-reorder-functions -fno-reorder-blocks-and-partition)
BUILD		?= build/$(ARCH)-$(subst $(CROSS),,$(CCNAME))$(if $(filter-out plain,$(VARIANT)),-$(VARIANT))$(if $(LINK_ORDER),-$(LINK_ORDER))
ASAN_BUILD	?= $(BUILD)-asan

# V=1 shows every command; by default one short line per step, kernel-style.
Q		:= $(if $(V),,@)
WARN		:= -Wall -Wextra
# clang 14 emits DWARF 5 by default, which valgrind 3.19 cannot read.
DWARF		:= $(if $(filter clang%,$(CCNAME)),-gdwarf-4)
CFLAGS_COMMON	:= -std=c11 $(OPT) $(DWARF) $(WARN) -Iinclude -Isrc -D_GNU_SOURCE -MMD -MP \
		   $(VARIANT_CFLAGS) $(EXTRA_CFLAGS)
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# The library; text_start.S is linked before it (see link_lib).
LIB_SRCS	:= $(wildcard src/*.c) $(wildcard src/strategies/*.c) $(wildcard src/regulator/*.c) \
		   $(wildcard src/regulator/strategies/*.c) $(wildcard src/arch/$(ARCH)/*.S)
TEST_SRCS	:= $(wildcard tests/test_*.c)
TOOL_SRCS	:= bench/opsbench-run.c
SUITE_SRCS	:= bench/suite.c bench/outfile.c bench/lookup.c bench/dispatch.c bench/calib.c bench/regulator.c bench/kernel.c \
		   bench/layout.c
CXXFLAGS_COMMON	:= -std=c++17 $(OPT) $(DWARF) $(WARN) -Iinclude -MMD -MP

.DEFAULT_GOAL	:= all
.PHONY: all build-all deps-build deps-disasm lib tests tools suite static-driver test test-unit test-variant test-asan deps-test deps-kcfi deps-bench bench bench-run \
	repro cachesim perf hyperfine deps-cachesim deps-perf deps-hyperfine test-arm64 deps-arm64 deps-test-arm64 \
	disasm report compare deps-report fuzz deps-fuzz clean help

# The measured code is aligned as the kernel's: loops and jump targets not at
# all (x86's -falign-jumps=1 -falign-loops=1; gcc's default pads them with
# multi-byte NOPs that a lookup executes, a different number per strategy).
# Its functions start on a cache line of their own, as the kernel's
# CONFIG_DEBUG_FORCE_FUNCTION_ALIGNMENT_64B does for the same reason: so that
# an edit elsewhere cannot move a strategy's loop within its lines (its
# offset mod 64 would otherwise be whatever the code before it left: 16-byte
# default alignment puts each strategy's loop at another offset).  clang
# aligns no jump target (the kernel's cc-option leaves -falign-jumps out).
ALIGN_MEASURED	:= -falign-functions=64 -falign-loops=1 $(if $(filter clang%,$(CCNAME)),,-falign-jumps=1)
# Kernel code has no FPU or vector registers (x86-64's -mno-sse -mno-mmx
# -mno-sse2 -mno-3dnow -mno-avx, arm64's -mgeneral-regs-only): nor has the
# measured code of a kernel build, which gcc would otherwise give SSE moves
# to copy a struct (tests/test_variant_codegen.sh checks it).  And it has
# the distributions' CONFIG_STACKPROTECTOR_STRONG: a canary in every
# function with an array or a local whose address is taken (step_into's
# struct path).
KERNEL_NOFPU_x86_64 := -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_NOFPU_arm64 := -mgeneral-regs-only
# x86-64 kernels keep the stack 8-byte aligned (no "sub $8,%rsp" before a
# call): so does the measured code of the x86-64 kernel builds, and what it
# calls that may call the C library realigns (OB_REALIGN, compiler.h).
KERNEL_STACK_x86_64 = $(if $(filter clang%,$(CCNAME)),-mstack-alignment=8,-mpreferred-stack-boundary=3)
KERNEL_MEASURED	= $(KERNEL_NOFPU_$(ARCH)) $(KERNEL_STACK_$(ARCH)) -fstack-protector-strong
MEASURED_FLAGS	= $(ALIGN_MEASURED) $(if $(filter-out plain,$(VARIANT)),$(KERNEL_MEASURED))
# The regulator's strategies call its device and drivers, ordinary C reached
# through their ops, so they keep the ABI's 16-byte stack.
REGULATOR_FLAGS	= $(ALIGN_MEASURED) $(if $(filter-out plain,$(VARIANT)),$(filter-out $(KERNEL_STACK_$(ARCH)),$(KERNEL_MEASURED)))
# What the measured code calls that is the kernel's code too, compiled with
# its flags but not aligned as a strategy: the component's globals and cold
# branches, the casefold personality's ops.
KERNEL_CODE_SRCS := src/component.c src/personality.c

# ---- one build tree per (arch, compiler, variant) ----
# $(call build_rules,DIR,EXTRA_FLAGS) defines DIR's library, tests and tools.
define build_rules
# The commit the tree is at, for src/build.c: rewritten only when it changes
# (through a temporary named for the shell's pid: two makes in one checkout
# must not share it).
$(1)/gen/commit.h: FORCE
	@mkdir -p $$(dir $$@)
	@echo '#define OB_COMMIT "$$(OB_COMMIT)"' >$$@.tmp.$$$$$$$$; \
	 if cmp -s $$@.tmp.$$$$$$$$ $$@; then rm -f $$@.tmp.$$$$$$$$; else mv $$@.tmp.$$$$$$$$ $$@; fi
$(1)/obj/src/build.o: $(1)/gen/commit.h
$(1)/obj/src/build.o: CFLAGS_COMMON += -I$(1)/gen

# The compiler and flags the tree is built with: rewritten only when they
# change, and every object depends on it, so that a change of flags (a new
# VARIANT_* or ALIGN_MEASURED, another CC) rebuilds what it changes.
$(1)/gen/flags: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$$(CC) $$(CXX) $$(CFLAGS_COMMON) $$(CXXFLAGS_COMMON) $(2) $$(MEASURED_FLAGS) regulator: $$(REGULATOR_FLAGS) kernel code: $$(KERNEL_CODE_SRCS)' >$$@.tmp.$$$$$$$$; \
	 if cmp -s $$@.tmp.$$$$$$$$ $$@; then rm -f $$@.tmp.$$$$$$$$; else mv $$@.tmp.$$$$$$$$ $$@; fi

# The measured code's alignment and registers (MEASURED_FLAGS, above).
$(1)/obj/src/strategies/%.o: CFLAGS_COMMON += $$(MEASURED_FLAGS)
$(1)/obj/src/regulator/strategies/%.o: CFLAGS_COMMON += $$(REGULATOR_FLAGS)
# The kernel's own code beside the strategies' (KERNEL_CODE_SRCS).
$(patsubst %.c,$(1)/obj/%.o,$(KERNEL_CODE_SRCS)): CFLAGS_COMMON += $$(filter-out $$(ALIGN_MEASURED),$$(MEASURED_FLAGS))
# The suite's harness, which calls the measured code and times it: its
# functions start on a cache line too, so that a change elsewhere in the
# suite does not move them within their lines (docs/method.md#the-layout).
$(1)/obj/bench/%.o: CFLAGS_COMMON += -falign-functions=64 $$(HARNESS_TEXT)
$(1)/obj/src/shim/%.o: CXXFLAGS_COMMON += $$(HARNESS_TEXT)

$(1)/obj/%.o: %.c $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  CC      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $(2) -MF $$(@:.o=.d) -MT $$@ -c $$< -o $$@.$$$$$$$$.tmp && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/obj/%.o: %.S $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  AS      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $(2) -MF $$(@:.o=.d) -MT $$@ -c $$< -o $$@.$$$$$$$$.tmp && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/obj/%.o: %.cc $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  CXX     $$@")
	$$(Q)$$(CXX) $$(CXXFLAGS_COMMON) $(2) -MF $$(@:.o=.d) -MT $$@ -c $$< -o $$@.$$$$$$$$.tmp && \
		mv -f $$@.$$$$$$$$.tmp $$@

# x86-64: the static_call strategy's static calls are patched at their call
# sites (the kernel's HAVE_STATIC_CALL_INLINE): compiled to assembly, its
# calls of trampolines recorded and its code given pages of its own by
# scripts/static_call_sites.awk (objtool's part), then assembled.
ifeq ($(ARCH),x86_64)
$(1)/obj/src/strategies/static_call.s: src/strategies/static_call.c $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  CC      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $(2) -MF $$(@:.s=.d) -MT $$@ -S $$< -o $$@.$$$$$$$$.tmp && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/obj/src/strategies/static_call.o: $(1)/obj/src/strategies/static_call.s scripts/static_call_sites.awk
	@$$(if $$(Q),echo "  SITES   $$@")
	$$(Q)awk -f scripts/static_call_sites.awk $$< >$$(@:.o=.sites.s).$$$$$$$$.tmp && \
		mv -f $$(@:.o=.sites.s).$$$$$$$$.tmp $$(@:.o=.sites.s)
	$$(Q)$$(CC) -c $$(@:.o=.sites.s) -o $$@.$$$$$$$$.tmp && mv -f $$@.$$$$$$$$.tmp $$@
endif

# Archives and programs are written under a temporary name, then renamed:
# two makes in one checkout each see either the old file or the whole new one.
$(1)/bin/opsbench-suite: $(1)/obj/src/arch/text_start.o $(patsubst %.c,$(1)/obj/%.o,$(SUITE_SRCS)) \
		$(1)/obj/src/shim/gbench.o $(1)/libopsbench.a
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CXX) $(2) $$(VARIANT_LDFLAGS) $$(call link_lib,$$^) \
		$$(if $$(LINK_ORDER),$$(call reverse_words,$$(call prog_objs,$$^)),$$(call prog_objs,$$^)) \
		-o $$@.$$$$$$$$.tmp -lbenchmark -lpthread -lm && \
		mv -f $$@.$$$$$$$$.tmp $$@

# The layout suites: the same link, text_start.o assembled with a pad, and
# text_pad.o with the same pad between the library and the harness.
$(1)/obj/layout/%/src/arch/text_start.o: src/arch/text_start.S $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  AS      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $(2) -DOB_TEXT_PAD=$$$$(($$* * $$(LAYOUT_PAD))) -c $$< -o $$@
$(1)/obj/layout/%/src/arch/text_pad.o: src/arch/text_pad.S $(1)/gen/flags
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  AS      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $(2) -DOB_TEXT_PAD=$$$$(($$* * $$(LAYOUT_PAD))) -c $$< -o $$@

# An odd layout also links the library's objects, and the suite's, in the
# other order (layout_flip): the functions' order changes too, as
# LINK_ORDER=reverse changes it, from the same objects.
$(1)/bin/opsbench-suite-layout%: $(1)/obj/layout/%/src/arch/text_start.o $(1)/obj/layout/%/src/arch/text_pad.o \
		$(patsubst %.c,$(1)/obj/%.o,$(SUITE_SRCS)) $(1)/obj/src/shim/gbench.o $(1)/libopsbench.a $(1)/libopsbench-flip.a
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CXX) $(2) $$(VARIANT_LDFLAGS) $$(filter %/text_start.o,$$^) \
		-Wl,--whole-archive $(1)/libopsbench$$(if $$(call layout_flip,$$*),-flip).a -Wl,--no-whole-archive \
		$$(filter %/text_pad.o,$$^) \
		$$(if $$(call xor,$$(LINK_ORDER),$$(call layout_flip,$$*)),$$(call reverse_words,$$(call layout_objs,$$^)),$$(call layout_objs,$$^)) \
		-o $$@.$$$$$$$$.tmp -lbenchmark -lpthread -lm && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/libopsbench.a: $(patsubst %.S,$(1)/obj/%.o,$(patsubst %.c,$(1)/obj/%.o,$(LIB_SRCS)))
	@$$(if $$(Q),echo "  AR      $$@")
	$$(Q)$$(AR) rcs $$@.$$$$$$$$.tmp $$(if $$(LINK_ORDER),$$(call reverse_words,$$^),$$^) && \
		mv -f $$@.$$$$$$$$.tmp $$@

# The same members in the other order, for the odd layouts; the
# page-aligned arch objects (thunks) stay last, so that the pad before the
# library moves what comes before them.
$(1)/libopsbench-flip.a: $(patsubst %.S,$(1)/obj/%.o,$(patsubst %.c,$(1)/obj/%.o,$(LIB_SRCS)))
	@$$(if $$(Q),echo "  AR      $$@")
	$$(Q)$$(AR) rcs $$@.$$$$$$$$.tmp $$(if $$(LINK_ORDER),$$^,$$(call reverse_words,$$(filter-out $(1)/obj/src/arch/%,$$^)) \
		$$(filter $(1)/obj/src/arch/%,$$^)) && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/tests/%: $(1)/obj/tests/%.o $(1)/libopsbench.a
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $(2) $$(VARIANT_LDFLAGS) $$^ -o $$@.$$$$$$$$.tmp -lcmocka -lm && \
		mv -f $$@.$$$$$$$$.tmp $$@

$(1)/bin/%: $(1)/obj/src/arch/text_start.o $(1)/obj/bench/%.o $(1)/libopsbench.a
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $(2) $$(VARIANT_LDFLAGS) $$(call link_lib,$$^) $$(call prog_objs,$$^) -o $$@.$$$$$$$$.tmp -lm && \
		mv -f $$@.$$$$$$$$.tmp $$@

# The driver linked statically, from the same objects: what valgrind:arm64
# runs under qemu-aarch64 (make cachesim ARCH=arm64; it stops on a dynamic one).
$(1)/bin/opsbench-run-static: $(1)/obj/src/arch/text_start.o $(1)/obj/bench/opsbench-run.o $(1)/libopsbench.a
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $(2) $$(VARIANT_LDFLAGS) -static $$(call link_lib,$$^) $$(call prog_objs,$$^) -o $$@.$$$$$$$$.tmp -lm && \
		mv -f $$@.$$$$$$$$.tmp $$@

-include $$(shell find $(1)/obj -name '*.d' 2>/dev/null)
endef

$(eval $(call build_rules,$(BUILD),))
$(eval $(call build_rules,$(ASAN_BUILD),$(SAN_FLAGS)))

TESTS		:= $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
ASAN_TESTS	:= $(patsubst tests/%.c,$(ASAN_BUILD)/tests/%,$(TEST_SRCS))
TOOLS		:= $(patsubst bench/%.c,$(BUILD)/bin/%,$(TOOL_SRCS))
SUITE		:= $(BUILD)/bin/opsbench-suite
SUITE_LAYOUTS	= $(foreach n,$(LAYOUTS),$(1)-layout$(n))
ASAN_TOOLS	:= $(patsubst bench/%.c,$(ASAN_BUILD)/bin/%,$(TOOL_SRCS))

.SECONDARY:
.PHONY: FORCE
FORCE:

# ---- targets ----

# The dependency step first (the cross compiler and arm64 libraries for
# ARCH=arm64 on another machine), then a new make that sees what it installed.
all: $(if $(CROSS),deps-arm64,deps-build) ## install what is missing, build the library, tests and tools (ARCH=arm64: cross-build, suite too)
	@$(MAKE) --no-print-directory build-all

build-all: lib tests tools $(if $(CROSS),suite)

deps-build:
	@scripts/deps.sh build

lib: $(BUILD)/libopsbench.a ## build the static library

tests: $(TESTS) ## build the unit tests

tools: $(TOOLS) ## build opsbench-run, the one-scenario driver

suite: $(SUITE) $(call SUITE_LAYOUTS,$(SUITE)) ## build opsbench-suite, the Google Benchmark suite (and its layout suites)

# The driver linked statically (make cachesim ARCH=arm64, make test-arm64).
static-driver: $(BUILD)/bin/opsbench-run-static

# Profile of `make bench`: quick (default) or full; FILTER=regex narrows it.
PROFILE		?= quick
FILTER		?=

deps-bench:
	@scripts/deps.sh bench $(if $(filter clang%,$(CCNAME)),clang)
	$(if $(filter full,$(PROFILE)),@scripts/deps.sh kcfi || echo "opsbench: no clang >= 16: PROFILE=full leaves the kcfi build out")

# make bench measures one other build beside this one (plain only, each its
# own process): in quick and standard, the build that matches the running
# kernel's mitigations (scripts/host-build.sh: srso, rethunk, retpoline or
# kernel on x86-64), or BENCH_BUILD=<variant> (none: plain alone); full,
# every variant of the architecture (kcfi where a clang >= 16 is installed;
# rethunk and srso with gcc).
HOST_BUILD_LINE	:= $(if $(filter bench bench-run,$(MAKECMDGOALS)),$(shell scripts/host-build.sh $(ARCH)))
HOST_BUILD_AUTO	:= $(firstword $(HOST_BUILD_LINE))
# clang builds no return thunks: an srso or rethunk host gets the retpoline build.
HOST_BUILD_AUTO	:= $(if $(filter clang%,$(CCNAME)),$(patsubst srso,retpoline,$(patsubst rethunk,retpoline,$(HOST_BUILD_AUTO))),$(HOST_BUILD_AUTO))
BENCH_BUILD	?= $(HOST_BUILD_AUTO)
ifneq ($(filter-out none $(VARIANTS_$(ARCH)),$(BENCH_BUILD)),)
$(error BENCH_BUILD=$(BENCH_BUILD): expected none or one of $(VARIANTS_$(ARCH)))
endif
HOST_BUILD_WHY	:= $(if $(filter command line environment,$(origin BENCH_BUILD)),BENCH_BUILD=$(BENCH_BUILD) was given,$(wordlist 2,999,$(HOST_BUILD_LINE)))
BENCH_VARIANTS_quick := $(filter-out none plain,$(BENCH_BUILD))
BENCH_VARIANTS_standard := $(BENCH_VARIANTS_quick)
BENCH_VARIANTS_full := $(filter-out plain $(if $(KCFI_CC),,kcfi) $(if $(filter clang%,$(CCNAME)),rethunk srso),\
			 $(VARIANTS_$(ARCH)))
BENCH_VARIANTS	:= $(if $(filter plain,$(VARIANT)),$(BENCH_VARIANTS_$(PROFILE)))
bench_cc	= $(if $(filter kcfi,$(1)),$(KCFI_CC),$(CCNAME))
bench_suite	= build/$(ARCH)-$(subst $(CROSS),,$(call bench_cc,$(1)))-$(1)$(if $(LINK_ORDER),-$(LINK_ORDER))/bin/opsbench-suite
flags_env	= OB_FLAGS_$(subst -,_,$(1))='$(VARIANT_$(1))' OB_CC_$(subst -,_,$(1))='$(call bench_cc,$(1))'

# The dependency step first, then a new make: one that sees what it installed.
bench: deps-bench ## measure every strategy (PROFILE=quick|standard|full, FILTER=regex, BENCH_BUILD=variant|none); writes results/<host>-<arch>-<time>/
	@$(MAKE) --no-print-directory bench-run

bench-run:
	@$(MAKE) --no-print-directory $(SUITE) $(call SUITE_LAYOUTS,$(SUITE)) $(TOOLS)
	@for v in $(BENCH_VARIANTS); do \
		if [ $$v = kcfi ]; then cc="CC=$(KCFI_CC) CXX=$(subst clang,clang++,$(KCFI_CC))"; else cc=; fi; \
		$(MAKE) --no-print-directory VARIANT=$$v $$cc suite || exit; \
	done
	@exec env SUITE=$(SUITE) DRIVER=$(BUILD)/bin/opsbench-run VARIANT_SUITES='$(foreach v,$(BENCH_VARIANTS),$(v)=$(call bench_suite,$(v)))' \
	 OB_CC='$(CC)' OB_CXX='$(CXX)' OB_CFLAGS='$(CFLAGS_COMMON)' OB_LINK_ORDER='$(LINK_ORDER)' \
	 OB_LAYOUTS='0 $(LAYOUTS)' OB_LAYOUT_PAD='$(LAYOUT_PAD)' \
	 OB_VARIANTS='plain $(BENCH_VARIANTS)' $(foreach v,$(BENCH_VARIANTS),$(call flags_env,$(v))) \
	 OB_HOST_BUILD='$(BENCH_VARIANTS_$(PROFILE))' OB_HOST_BUILD_WHY='$(subst ','"'"',$(HOST_BUILD_WHY))' \
	 scripts/bench.sh

repro: deps-bench ## run the L1 and L2 lookup scenarios in two separate runs; print each strategy's ratio in both (FILTER=regex)
	@$(MAKE) --no-print-directory $(SUITE)
	@SUITE=$(SUITE) OB_CC='$(CC)' OB_CXX='$(CXX)' \
	 OB_CFLAGS='$(CFLAGS_COMMON)' scripts/repro.sh

# Where cachesim, perf and hyperfine write: RUN=folder, else the newest run.
RUN		?=
# Cache geometry of make cachesim: host (sysfs, else CPUID), run (the caches the
# run's bench ran on, its registry.json), zen4, neoverse-n1 or neoverse-v2;
# ARCH=arm64: neoverse-n1 unless given.
GEOMETRY	?= $(if $(filter arm64,$(ARCH)),neoverse-n1,host)
# make cachesim simulates every build the run's make bench measured (its
# meta.json's variants), each with its own driver, so that the cost model
# prices a build's differences with that build's counts; VARIANT= on the
# command line simulates that build alone.
CACHESIM_VARIANT := $(if $(filter command line,$(origin VARIANT)),$(VARIANT))
# (Not spelled $(MAKE) in the recipe, so that make -n prints the loop rather than running it.)
CACHESIM_SUBMAKE = $(MAKE)
# Lookup orders make cachesim simulates besides each scenario's own (uniform):
# make bench times sorted lookups too.
ORDERS		?= sorted

deps-cachesim:
	@scripts/deps.sh build cachesim $(if $(filter arm64,$(ARCH)),$(if $(CROSS),arm64) valgrind-arm64)

ifeq ($(ARCH),arm64)
# arm64: the plain and bti-pac builds' static drivers, each under valgrind
# (emulated on another host: lib/valgrind.py), rows added to cachesim.csv.
# 2000 lookups a run, not 20000: under qemu the cold scenarios' pollution
# would take hours (docs/method.md#counters).
CACHESIM_ARM64	:= build/arm64-$(subst $(CROSS),,$(CCNAME))
cachesim: deps-cachesim
	@$(MAKE) --no-print-directory ARCH=arm64 VARIANT=plain static-driver
	@$(MAKE) --no-print-directory ARCH=arm64 VARIANT=bti-pac static-driver
	@for d in $(CACHESIM_ARM64) $(CACHESIM_ARM64)-bti-pac; do \
		python3 scripts/cachesim.py --check --driver=$$d/bin/opsbench-run-static --geometry="$$GEOMETRY" || exit; \
	done
	@dir=$$(COMMAND='make cachesim ARCH=arm64' scripts/results-dir.sh) && \
	 python3 scripts/cachesim.py --driver=$(CACHESIM_ARM64)/bin/opsbench-run-static --out="$$dir" \
		--geometry="$$GEOMETRY" --lookups=2000 --keep-open && \
	 exec python3 scripts/cachesim.py --driver=$(CACHESIM_ARM64)-bti-pac/bin/opsbench-run-static --out="$$dir" \
		--geometry="$$GEOMETRY" --lookups=2000
else
cachesim: deps-cachesim $(TOOLS) ## simulated instructions, cache misses and calls per lookup, every strategy and every build the run measured (VARIANT=: one build; GEOMETRY=host|run|zen4|neoverse-n1|neoverse-v2, ORDERS=, RUN=folder; ARCH=arm64: plain and bti-pac, emulated on x86-64)
	@python3 scripts/cachesim.py --check --driver=$(BUILD)/bin/opsbench-run --geometry="$$GEOMETRY" --orders="$$ORDERS"
	@dir=$$(COMMAND='make cachesim' scripts/results-dir.sh) && \
	 variants=$${CACHESIM_VARIANT:-$$(python3 scripts/runs.py variants --known "$(VARIANTS_$(ARCH))" "$$dir")} && \
	 last=$$(echo $$variants | awk '{print $$NF}') && \
	 for v in $$variants; do \
		if [ $$v = kcfi ]; then cc="CC=$(KCFI_CC) CXX=$(subst clang,clang++,$(KCFI_CC))"; b=$(KCFI_CC); \
		else cc=; b=$(subst $(CROSS),,$(CCNAME)); fi; \
		d=build/$(ARCH)-$$b$$([ $$v = plain ] || echo -$$v); \
		$(CACHESIM_SUBMAKE) --no-print-directory VARIANT=$$v $$cc tools || exit; \
		python3 scripts/cachesim.py --driver=$$d/bin/opsbench-run --out="$$dir" --geometry="$$GEOMETRY" \
			--orders="$$ORDERS" $$([ $$v = $$last ] || echo --keep-open) || exit; \
	 done
endif

deps-perf:
	@scripts/deps.sh build perf

perf: deps-perf $(TOOLS) ## perf stat of every strategy, setup subtracted (RUN=folder)
	@DRIVER=$(BUILD)/bin/opsbench-run scripts/perf.sh --check
	@dir=$$(COMMAND='make perf' scripts/results-dir.sh) && \
	 DRIVER=$(BUILD)/bin/opsbench-run OUT="$$dir" exec scripts/perf.sh

deps-hyperfine:
	@scripts/deps.sh build hyperfine

hyperfine: deps-hyperfine $(TOOLS) ## every strategy as a whole process under hyperfine (RUN=folder)
	@DRIVER=$(BUILD)/bin/opsbench-run scripts/hyperfine.sh --check
	@dir=$$(COMMAND='make hyperfine' scripts/results-dir.sh) && \
	 DRIVER=$(BUILD)/bin/opsbench-run OUT="$$dir" exec scripts/hyperfine.sh

# ---- arm64: cross-built here, tests run under qemu-aarch64 ----
QEMU		?= qemu-aarch64
QEMU_LD_PREFIX	?= /usr/aarch64-linux-gnu
ARM64_BUILD	:= build/arm64-gcc

deps-arm64:
	@scripts/deps.sh arm64

# (and a short arm64 cachesim of each, against the host's x86-64 driver)
X86_RUN		:= $(if $(filter x86_64,$(HOST_ARCH)),build/x86_64-gcc/bin/opsbench-run)

deps-test-arm64:
	@scripts/deps.sh build arm64 cachesim valgrind-arm64

test-arm64: deps-test-arm64 ## cross-build for arm64 (plain and bti-pac) and run every unit test under qemu-aarch64 -cpu max, and a short arm64 cachesim
	$(if $(X86_RUN),@$(MAKE) --no-print-directory ARCH=x86_64 VARIANT=plain CC=gcc $(X86_RUN))
	@$(MAKE) --no-print-directory ARCH=arm64 VARIANT=plain build-all static-driver
	@QEMU='$(QEMU)' QEMU_LD_PREFIX=$(QEMU_LD_PREFIX) BUILD=$(ARM64_BUILD) VARIANT=plain X86_RUN=$(X86_RUN) scripts/test-arm64.sh
	@$(MAKE) --no-print-directory ARCH=arm64 VARIANT=bti-pac build-all static-driver
	@QEMU='$(QEMU)' QEMU_LD_PREFIX=$(QEMU_LD_PREFIX) BUILD=$(ARM64_BUILD)-bti-pac VARIANT=bti-pac X86_RUN=$(X86_RUN) scripts/test-arm64.sh

# ---- make disasm: each strategy's dispatch sites under every variant of
# each architecture, from objects built with OB_DISASM_SITES and the same
# variant flags as the measured builds ----
DISASM_DIR	:= build/disasm
STRATEGY_SRCS	:= $(wildcard src/strategies/*.c)
DISASM_FLAGS	:= -std=c11 -O2 $(WARN) -Iinclude -Isrc -D_GNU_SOURCE -DOB_DISASM_SITES
DISASM_HDRS	:= $(wildcard src/model/*.h include/opsbench/*.h)
# Columns: arch-variant; kcfi only where a clang >= 16 is installed.
# (srso's strategies are rethunk's; only the library's return thunk differs.)
DISASM_X86_COLS	:= $(addprefix x86_64-,plain kernel retpoline rethunk ibt $(if $(KCFI_CC),kcfi))
DISASM_ARM_COLS	:= $(addprefix arm64-,plain bti-pac)
disasm_cc	= $(if $(filter arm64-%,$(1)),aarch64-linux-gnu-gcc,$(if $(filter %-kcfi,$(1)),$(KCFI_CC),gcc))
# A variant's flags for an architecture (the kernel's flags are per architecture).
disasm_flags	= $(if $(filter arm64-%,$(1)),$(if $(filter-out arm64-plain,$(1)),$(call KERNEL_FLAGS_arm64)) $(filter-out $(VARIANT_kernel),$(VARIANT_$(1:arm64-%=%))),$(VARIANT_$(1:x86_64-%=%)))

define disasm_rules
$(DISASM_DIR)/$(1)/%.o: src/strategies/%.c $(DISASM_HDRS)
	@mkdir -p $$(dir $$@)
	$$(Q)$(call disasm_cc,$(1)) $$(DISASM_FLAGS) $(call disasm_flags,$(1)) -c $$< -o $$@
endef
$(foreach c,$(DISASM_X86_COLS) $(DISASM_ARM_COLS),$(eval $(call disasm_rules,$(c))))

disasm_objs	= $(foreach c,$(1),$(patsubst src/strategies/%.c,$(DISASM_DIR)/$(c)/%.o,$(STRATEGY_SRCS)))
DISASM_OBJS	:= $(call disasm_objs,$(DISASM_X86_COLS) $(DISASM_ARM_COLS))
DISASM_X86	:= $(call disasm_objs,$(DISASM_X86_COLS))

deps-disasm:
	@scripts/deps.sh build arm64 disasm

disasm: deps-disasm ## each strategy's hash-op and compare-op call sites under every variant, x86-64 and arm64, side by side
	@$(MAKE) --no-print-directory $(DISASM_OBJS) $(TOOLS)
	@python3 scripts/disasm.py --dir $(DISASM_DIR) --driver $(BUILD)/bin/opsbench-run --out $(DISASM_DIR)/disasm.md \
	 --columns $(DISASM_X86_COLS) $(DISASM_ARM_COLS)

deps-report:
	@scripts/deps.sh report

report: deps-report ## report.md, plots and claims for RUN=folder (default: the newest complete run)
	@$(MAKE) --no-print-directory $(DISASM_X86) $(TOOLS)
	@dir=$$(scripts/results-dir.sh --existing) && \
	 python3 scripts/report.py --check -- "$$dir" && \
	 python3 scripts/disasm.py --dir $(DISASM_DIR) --driver $(BUILD)/bin/opsbench-run --out="$$dir/disasm.md" --columns $(DISASM_X86_COLS) >/dev/null && \
	 python3 scripts/provenance.py --tree --tool "make report" -- "$$dir" disasm.md disasm.json && \
	 python3 scripts/report.py -- "$$dir"

# Two results folders for make compare.
A		?=
B		?=

# The variables a user types reach the scripts through the environment, as
# data: never pasted into a shell command line (a quote in FILTER is a
# quote), and each script checks its own and names it when refusing.
# Taken as typed: a '$' in FILTER='lookup$' or in a folder's name is a '$'.
# (Only what the user typed: a default here is make text, as GEOMETRY's.)
AS_TYPED	:= FILTER RUN A B PASSES BUDGET GEOMETRY ORDERS
$(foreach v,$(AS_TYPED),$(if $(filter command line environment%,$(origin $(v))),\
	$(eval override $(v) := $$(value $(v)))))
export PROFILE FILTER RUN GEOMETRY A B ORDERS CACHESIM_VARIANT

# exec: the shell (dash) would otherwise stand between make and the script,
# take make's SIGTERM itself and leave the script running, orphaned, when
# the signal came before the script had found make above it.
compare: deps-report ## compare two results folders: make compare A=results/x B=results/y
	@test -n "$$A" -a -n "$$B" || { echo "make compare: give two results folders, A=... B=..." >&2; exit 2; }
	@exec python3 scripts/compare_runs.py -- "$$A" "$$B"

# ---- fuzzing: libFuzzer + ASan + UBSan, with clang ----
FUZZ_BUILD	:= build/$(HOST_ARCH)-clang-fuzz
FUZZ_FLAGS	:= -std=c11 -O1 -g -gdwarf-4 $(WARN) -Iinclude -Isrc -D_GNU_SOURCE \
		   -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# Seconds `make fuzz` runs (make test runs FUZZ_SMOKE seconds).
FUZZ_TIME	?= 60
FUZZ_SMOKE	?= 10
FUZZ_BIN	:= $(FUZZ_BUILD)/fuzz_lookup

$(FUZZ_BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)clang -Iinclude -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)clang $(FUZZ_FLAGS) -MMD -MP -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BIN): $(patsubst %.S,$(FUZZ_BUILD)/obj/%.o,$(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(LIB_SRCS) tests/fuzz/fuzz_lookup.c))
	@$(if $(Q),echo "  LD      $@")
	$(Q)clang $(FUZZ_FLAGS) -fsanitize=fuzzer $^ -o $@

# Headers the fuzz objects include (the other build trees track them the same way).
-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

deps-fuzz:
	@scripts/deps.sh build clang

fuzz: deps-fuzz ## fuzz names, paths and trees for FUZZ_TIME seconds (default 60); crashes go to tests/fuzz/regressions/
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@scripts/fuzz.sh $(FUZZ_BIN) $(FUZZ_TIME)

deps-test:
	@scripts/deps.sh test bench cachesim hyperfine report clang
	@scripts/deps.sh kcfi || echo "opsbench: could not install clang >= 16: the kCFI tests will say SKIPPED"

deps-kcfi:
	@scripts/deps.sh kcfi

test: deps-test ## install what is missing, then run every test (plain, then under ASan+UBSan)
	@$(MAKE) --no-print-directory test-unit test-asan

SCRIPT_TESTS	:= $(wildcard tests/test_*.sh tests/test_*.py)

test-unit: $(TESTS) $(TOOLS) $(SUITE) $(call SUITE_LAYOUTS,$(SUITE)) $(FUZZ_BIN) ## run the unit and script tests (no dependency step)
	@OPSBENCH_RUN=$(BUILD)/bin/opsbench-run OPSBENCH_SUITE=$(SUITE) OPSBENCH_FUZZ=$(FUZZ_BIN) \
	 OPSBENCH_BUILD=$(BUILD) OPSBENCH_VARIANT=$(VARIANT) \
	 OPSBENCH_FUZZ_SECONDS=$(FUZZ_SMOKE) scripts/run-tests.sh tests $(TESTS) $(SCRIPT_TESTS)

# The tests whose outcome depends on the build's machine code (its flags,
# thunks, layout): what CI runs again under each code-generation variant.
# The rest (the scripts' analysis, bad input, dependencies, interruption)
# is the same whatever the variant, and runs once in `make test`.
VARIANT_SCRIPT_TESTS := $(addprefix tests/,test_suite_smoke.sh test_tools_smoke.sh test_variant_codegen.sh \
			test_kcfi.sh test_symbols.sh test_link_order.sh test_cachesim_placement.sh)

test-variant: $(TESTS) $(TOOLS) $(SUITE) $(call SUITE_LAYOUTS,$(SUITE)) ## run the tests that depend on the build (VARIANT=...): unit tests, smoke, machine code, symbols, layout
	@OPSBENCH_RUN=$(BUILD)/bin/opsbench-run OPSBENCH_SUITE=$(SUITE) \
	 OPSBENCH_BUILD=$(BUILD) OPSBENCH_VARIANT=$(VARIANT) \
	 scripts/run-tests.sh tests-$(VARIANT) $(TESTS) $(VARIANT_SCRIPT_TESTS)

test-asan: $(ASAN_TESTS) $(ASAN_TOOLS) $(ASAN_BUILD)/bin/opsbench-suite ## run the unit tests and the suite's smoke test built with ASan+UBSan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	 OPSBENCH_RUN=$(ASAN_BUILD)/bin/opsbench-run OPSBENCH_SUITE=$(ASAN_BUILD)/bin/opsbench-suite \
	 scripts/run-tests.sh tests-asan $(ASAN_TESTS) tests/test_suite_smoke.sh

clean: ## remove every build tree
	rm -rf build

help: ## list the targets and the variables they take
	@echo "opsbench targets:"
	@grep -hE '^[a-z0-9-]+:.*## ' Makefile | \
		sed -e 's/:.*## /\t/' | awk -F'\t' '{ printf "  %-12s %s\n", $$1, $$2 }'
	@echo
	@echo "variables: CC=gcc|clang  OPT='$(OPT)'  EXTRA_CFLAGS=  ARCH=$(ARCH)  V=1 (show commands)"
	@echo "           VARIANT=plain|kernel|retpoline|rethunk|srso|ibt|kcfi|bti-pac (code generation; each its own build tree)"
	@echo "           NO_INSTALL=1 (install nothing: list what is missing, exit 2)"
	@echo "           PROFILE=quick|standard|full  FILTER=regex  PASSES=N BUDGET=S (make bench: most blocks per lookup group, seconds for the lookup groups; default: the profile's)"
	@echo "           BENCH_BUILD=variant|none (make bench: the build besides plain; default: the one that matches this kernel's mitigations)"
	@echo "           LINK_ORDER=reverse (the library's objects linked in the other order, a tree of its own: does a result move with the layout?)"
	@echo "           LAYOUTS= (make bench: every block in the usual layout; by default each block draws one of 4 code layouts and 4 stack offsets)"
	@echo "build tree: $(BUILD) (ASan+UBSan: $(ASAN_BUILD))"
	@echo
	@if [ -x $(SUITE) ]; then echo "profiles (make bench PROFILE=..., from $(SUITE) --list-profiles):"; $(SUITE) --list-profiles; \
	 else echo "profiles: \`make suite\` builds $(SUITE), whose --list-profiles says what each profile runs"; fi
