/* SPDX-License-Identifier: MIT */
/*
 * gnu_property.h - the .note.gnu.property that an assembly file needs so
 * that the linker keeps the executable marked for the CET features the C
 * code was built with (-fcf-protection defines __CET__: bit 0 IBT, bit 1
 * shadow stack).  Without it, one unmarked object drops the mark.
 */
#ifdef __CET__
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.long	4			/* name size: "GNU\0" */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	__CET__
	.p2align 3
	.popsection
#endif
