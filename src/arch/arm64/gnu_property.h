/* SPDX-License-Identifier: MIT */
/*
 * gnu_property.h - the .note.gnu.property that an assembly file needs so
 * that the linker keeps the executable marked for BTI and PAC when the C
 * code is built with -mbranch-protection (one unmarked object drops the
 * mark, and the loader then maps no page with PROT_BTI).  Code in a file
 * that includes this must be BTI-safe: here, reached by direct branches only.
 */
#if defined(__ARM_FEATURE_BTI_DEFAULT) || defined(__ARM_FEATURE_PAC_DEFAULT)
#ifdef __ARM_FEATURE_BTI_DEFAULT
#define OB_AARCH64_BTI	1
#else
#define OB_AARCH64_BTI	0
#endif
#ifdef __ARM_FEATURE_PAC_DEFAULT
#define OB_AARCH64_PAC	2
#else
#define OB_AARCH64_PAC	0
#endif
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.long	4			/* name size: "GNU\0" */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000000		/* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
	.long	4
	.long	(OB_AARCH64_BTI | OB_AARCH64_PAC)
	.p2align 3
	.popsection
#endif
