// SPDX-License-Identifier: MIT
/*
 * test_pac.c - pointer authentication is live in the VARIANT=bti-pac build
 * on arm64 (under qemu-aarch64 -cpu max here): a return address signed the
 * way paciasp signs it authenticates back to itself, and one with a forged
 * signature does not (a "ret" through it would fault).  The A key signs
 * with pacia1716/autia1716, which, like paciasp, are in the hint space: on
 * a CPU without PAC they do nothing, and the tests say so.  Other builds
 * and x86-64 skip.  (BTI: see the Makefile for why it is not enforced.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "opsbench/compiler.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_PAC_DEFAULT)
/* Sign @ptr with the A instruction key and @modifier (x17 and x16). */
static uint64_t pacia(uint64_t ptr, uint64_t modifier)
{
	register uint64_t x17 __asm__("x17") = ptr;
	register uint64_t x16 __asm__("x16") = modifier;

	__asm__ volatile("hint #8" : "+r"(x17) : "r"(x16));	/* pacia1716 */
	return x17;
}

/* Authenticate @ptr: the bare pointer if its signature is right. */
static uint64_t autia(uint64_t ptr, uint64_t modifier)
{
	register uint64_t x17 __asm__("x17") = ptr;
	register uint64_t x16 __asm__("x16") = modifier;

	__asm__ volatile("hint #12" : "+r"(x17) : "r"(x16));	/* autia1716 */
	return x17;
}
#endif

#if defined(__aarch64__) && defined(__ARM_FEATURE_PAC_DEFAULT)
/*
 * Whether signing changes @ptr with any of 8 modifiers.  One signature can
 * leave a pointer as it was: its PAC (7 bits here) is all zeros once in
 * 2^bits, which is not a CPU without PAC; 8 in a row, once in 2^56.
 */
static bool pac_signs(uint64_t ptr, uint64_t modifier)
{
	for (uint64_t k = 0; k < 8; k++)
		if (pacia(ptr, modifier + 16 * k) != ptr)
			return true;
	return false;
}
#endif

static noinline void skip_unless_pac(void)
{
#if !defined(__aarch64__) || !defined(__ARM_FEATURE_PAC_DEFAULT)
	print_message("PAC: not the arm64 bti-pac build: nothing to prove\n");
	skip();
#endif
}

static void test_signed_return_address_authenticates(void **state)
{
	(void)state;
	skip_unless_pac();
#if defined(__aarch64__) && defined(__ARM_FEATURE_PAC_DEFAULT)
	uint64_t ret = (uint64_t)(uintptr_t)__builtin_return_address(0);
	uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
	uint64_t signed_ret = pacia(ret, sp);

	if (!pac_signs(ret, sp)) {
		print_message("PAC: this CPU leaves pointers unsigned (no FEAT_PAuth: run under qemu -cpu max)\n");
		skip();
	}
	assert_int_equal(autia(signed_ret, sp), ret);
#endif
}

static void test_forged_signature_does_not_authenticate(void **state)
{
	(void)state;
	skip_unless_pac();
#if defined(__aarch64__) && defined(__ARM_FEATURE_PAC_DEFAULT)
	uint64_t ret = (uint64_t)(uintptr_t)__builtin_return_address(0);
	uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
	uint64_t signed_ret = pacia(ret, sp);

	if (!pac_signs(ret, sp))
		skip();
	/*
	 * Another modifier (another stack frame) fails, but only nearly always:
	 * the PAC is a few bits (7 with 48-bit addresses and the top byte
	 * ignored), so a wrong modifier passes by chance once in 2^bits.  Of 64
	 * wrong modifiers a checked PAC lets a few pass (0 or 2 in each of 12
	 * runs under qemu -cpu max); an unchecked one lets all 64 pass.  More
	 * than 16 fails.
	 */
	unsigned int passed = 0;

	for (uint64_t k = 1; k <= 64; k++)
		passed += autia(signed_ret, sp + 16 * k) == ret;
	print_message("PAC: %u of 64 wrong modifiers authenticated (chance collisions)\n", passed);
	assert_in_range(passed, 0, 16);
	/* A flipped PAC bit always fails: the stored PAC is not the computed one. */
	assert_int_not_equal(autia(signed_ret ^ (UINT64_C(1) << 53), sp), ret);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signed_return_address_authenticates),
		cmocka_unit_test(test_forged_signature_does_not_authenticate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
