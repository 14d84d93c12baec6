/* SPDX-License-Identifier: MIT */
/*
 * pp-vec.c - a program that holds values in every vector, mask and x87
 * register it has, in MXCSR and the x87 control word, in general
 * registers and the direction flag (set), across N hits of a USDT probe (vec:hit), and says whether
 * they came out as they went in (tests/probes/vecregs.sh): the probe's
 * hit, under ptrace or handled in the program <design#probes>, must not
 * change any of them.
 *
 *     pp-vec [N [clobber|fault]]
 *     pp-vec lines
 *
 * The loop and its probe are one assembler function (vec_run), so that
 * no compiled code runs between the registers' loads and their stores.
 * `clobber' changes %xmm3 after the loop: the program must then say so
 * (the comparison works); `fault' ends it with SIGSEGV after the hits.  The probe's arguments: the hits left (-8@),
 * a float and a double, and four pointers to read as strings (one to a
 * string, one unreadable, NULL, one to a string of 600 bytes).  Prints
 * "vec N hits, registers kept" or what changed, and exits 0 or 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registers' images, in and out of vec_run. */
#define V_REGS 0      /* 32 vector registers, 64 bytes each */
#define V_K 2048      /* k0..k7, 8 bytes each (16 bits used) */
#define V_X87 2112    /* a double, in %st(0) */
#define V_MXCSR 2120
#define V_FCW 2124
#define V_GP 2128     /* rbx, rbp, r10 .. r15 */
#define V_HITS 2192   /* the hits counted in %r8 */
#define V_FLAGS 2200  /* the flags after the loop (DF set in it) */
#define V_ARGS 2240   /* the probe's arguments in memory */
#define V_SIZE 2304

/* What vec_run loads: bit 0 clobber, 1 AVX-512 (zmm0..31, k0..7), 2 AVX
 * (ymm0..15), else SSE (xmm0..15). */
enum { V_CLOBBER = 1, V_AVX512 = 2, V_AVX = 4 };

void vec_run(long n, const unsigned char *in, unsigned char *out,
             long flags);
void stay_hit(long n);

/* `pp-vec lines': "ready", then for each line read, the probe vec:stay
 * hit with its number and "got LINE"; "done" at the end. */
static int lines(void)
{
    char line[256];
    long n = 0;

    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
        stay_hit(++n);
        printf("got %s", line);
        fflush(stdout);
    }
    printf("done\n");
    return 0;
}

/* clang-format off */
__asm__(
    ".text\n"
    ".globl vec_run\n"
    ".type vec_run, @function\n"
    "vec_run:\n"
    ".cfi_startproc\n"
    "pushq %rbp\n"
    "pushq %rbx\n"
    "pushq %r12\n"
    "pushq %r13\n"
    "pushq %r14\n"
    "pushq %r15\n"
    "subq $24, %rsp\n"
    ".cfi_def_cfa_offset 80\n"
    "stmxcsr (%rsp)\n"
    "fnstcw 4(%rsp)\n"
    "movq %rdx, 8(%rsp)\n"
    "movq %rcx, %r9\n"
    "movq %rdi, %rcx\n"
    "testl $2, %r9d\n"
    "jz 10f\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    "vmovdqu64 \\i*64(%rsi), %zmm\\i\n"
    ".endr\n"
    ".irp i,0,1,2,3,4,5,6,7\n"
    "kmovw 2048+\\i*8(%rsi), %k\\i\n"
    ".endr\n"
    "jmp 12f\n"
    "10: testl $4, %r9d\n"
    "jz 11f\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "vmovdqu \\i*64(%rsi), %ymm\\i\n"
    ".endr\n"
    "jmp 12f\n"
    "11:\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "movdqu \\i*64(%rsi), %xmm\\i\n"
    ".endr\n"
    "12: fldl 2112(%rsi)\n"
    "ldmxcsr 2120(%rsi)\n"
    "fldcw 2124(%rsi)\n"
    "movq 2128(%rsi), %rbx\n"
    "movq 2136(%rsi), %rbp\n"
    "movq 2144(%rsi), %r10\n"
    "movq 2152(%rsi), %r11\n"
    "movq 2160(%rsi), %r12\n"
    "movq 2168(%rsi), %r13\n"
    "movq 2176(%rsi), %r14\n"
    "movq 2184(%rsi), %r15\n"
    "xorl %r8d, %r8d\n"
    "std\n"
    "testq %rcx, %rcx\n"
    "jz 14f\n"
    /* the probe: its nop, then what a trampoline moves (8 bytes) */
    "990: nop\n"
    ".pushsection .note.stapsdt,\"\",\"note\"\n"
    ".balign 4\n"
    ".4byte 992f-991f, 994f-993f, 3\n"
    "991: .asciz \"stapsdt\"\n"
    "992: .balign 4\n"
    "993: .8byte 990b\n"
    ".8byte _.stapsdt.base\n"
    ".8byte 0\n"
    ".asciz \"vec\"\n"
    ".asciz \"hit\"\n"
    ".asciz \"-8@%rcx 4f@2240(%rsi) 8f@2248(%rsi) 8@2256(%rsi) "
    "8@2264(%rsi) 8@2272(%rsi) 8@2280(%rsi)\"\n"
    "994: .balign 4\n"
    ".popsection\n"
    "addq $1, %r8\n"
    "subq $1, %rcx\n"
    "jnz 990b\n"
    "14: pushfq\n"
    "popq %rax\n"
    "cld\n"
    "testl $1, %r9d\n"
    "jz 15f\n"
    "pxor %xmm3, %xmm3\n"
    "15: movq 8(%rsp), %rdx\n"
    "testl $2, %r9d\n"
    "jz 16f\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    "vmovdqu64 %zmm\\i, \\i*64(%rdx)\n"
    ".endr\n"
    ".irp i,0,1,2,3,4,5,6,7\n"
    "kmovw %k\\i, 2048+\\i*8(%rdx)\n"
    ".endr\n"
    "vzeroupper\n"
    "jmp 18f\n"
    "16: testl $4, %r9d\n"
    "jz 17f\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "vmovdqu %ymm\\i, \\i*64(%rdx)\n"
    ".endr\n"
    "vzeroupper\n"
    "jmp 18f\n"
    "17:\n"
    ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "movdqu %xmm\\i, \\i*64(%rdx)\n"
    ".endr\n"
    "18: fstpl 2112(%rdx)\n"
    "stmxcsr 2120(%rdx)\n"
    "fnstcw 2124(%rdx)\n"
    "movq %rbx, 2128(%rdx)\n"
    "movq %rbp, 2136(%rdx)\n"
    "movq %r10, 2144(%rdx)\n"
    "movq %r11, 2152(%rdx)\n"
    "movq %r12, 2160(%rdx)\n"
    "movq %r13, 2168(%rdx)\n"
    "movq %r14, 2176(%rdx)\n"
    "movq %r15, 2184(%rdx)\n"
    "movq %r8, 2192(%rdx)\n"
    "movq %rax, 2200(%rdx)\n"
    "ldmxcsr (%rsp)\n"
    "fldcw 4(%rsp)\n"
    "addq $24, %rsp\n"
    "popq %r15\n"
    "popq %r14\n"
    "popq %r13\n"
    "popq %r12\n"
    "popq %rbx\n"
    "popq %rbp\n"
    ".cfi_def_cfa_offset 8\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size vec_run, .-vec_run\n"
    /* stay_hit(n): a probe whose site stays under ptrace (a call right
     * after its nop cannot be moved) */
    ".globl stay_hit\n"
    ".type stay_hit, @function\n"
    "stay_hit:\n"
    ".cfi_startproc\n"
    "995: nop\n"
    ".pushsection .note.stapsdt,\"\",\"note\"\n"
    ".balign 4\n"
    ".4byte 997f-996f, 999f-998f, 3\n"
    "996: .asciz \"stapsdt\"\n"
    "997: .balign 4\n"
    "998: .8byte 995b\n"
    ".8byte _.stapsdt.base\n"
    ".8byte 0\n"
    ".asciz \"vec\"\n"
    ".asciz \"stay\"\n"
    ".asciz \"-8@%rdi\"\n"
    "999: .balign 4\n"
    ".popsection\n"
    "call stay_next\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size stay_hit, .-stay_hit\n"
    "stay_next: ret\n"
    ".ifndef _.stapsdt.base\n"
    ".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
    ".weak _.stapsdt.base\n"
    ".hidden _.stapsdt.base\n"
    "_.stapsdt.base: .space 1\n"
    ".size _.stapsdt.base, 1\n"
    ".popsection\n"
    ".endif\n");
/* clang-format on */

static void put64(unsigned char *b, uint64_t v)
{
    memcpy(b, &v, 8);
}

int main(int argc, char **argv)
{
    static unsigned char in[V_SIZE] __attribute__((aligned(64)));
    static unsigned char out[V_SIZE] __attribute__((aligned(64)));
    static char longer[601];
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int clobber = argc > 2 && strcmp(argv[2], "clobber") == 0;
    int fault = argc > 2 && strcmp(argv[2], "fault") == 0;
    long flags = clobber ? V_CLOBBER : 0;
    unsigned int vregs = 16, vbytes = 16, kregs = 0, bad = 0;
    float f = 1.5f;
    double d = -2.25, x87 = 3.0 / 7.0;
    uint32_t mxcsr = 0xff80; /* all masked, toward zero, flush to zero */
    uint16_t fcw = 0x0c7f;   /* toward zero, single precision */
    const char *what;

    if (argc > 1 && strcmp(argv[1], "lines") == 0)
        return lines();
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        flags |= V_AVX512;
        vregs = 32;
        vbytes = 64;
        kregs = 8;
        what = "zmm0-31, k0-7";
    } else if (__builtin_cpu_supports("avx")) {
        flags |= V_AVX;
        vbytes = 32;
        what = "ymm0-15";
    } else {
        what = "xmm0-15";
    }
    /* values no register holds by chance: each byte its own */
    for (unsigned int i = 0; i < V_X87; i++)
        in[i] = (unsigned char)(i * 7 + 1 + i / 256);
    memcpy(in + V_X87, &x87, 8);
    memcpy(in + V_MXCSR, &mxcsr, 4);
    memcpy(in + V_FCW, &fcw, 2);
    for (unsigned int i = 0; i < 8; i++)
        put64(in + V_GP + 8 * i, 0x1111111111111111ull * (i + 1) + 0x0f);
    memcpy(in + V_ARGS, &f, 4);
    memcpy(in + V_ARGS + 8, &d, 8);
    put64(in + V_ARGS + 16, (uint64_t)(uintptr_t)"kept");
    put64(in + V_ARGS + 24, 16); /* unreadable */
    put64(in + V_ARGS + 32, 0);
    memset(longer, 'x', 600);
    put64(in + V_ARGS + 40, (uint64_t)(uintptr_t)longer);

    vec_run(n, in, out, flags);

    for (unsigned int r = 0; r < vregs; r++)
        if (memcmp(in + V_REGS + 64 * r, out + V_REGS + 64 * r, vbytes) != 0) {
            printf("vec: vector register %u changed\n", r);
            bad++;
        }
    for (unsigned int k = 0; k < kregs; k++)
        if (memcmp(in + V_K + 8 * k, out + V_K + 8 * k, 2) != 0) {
            printf("vec: k%u changed\n", k);
            bad++;
        }
    if (memcmp(in + V_X87, out + V_X87, 8) != 0) {
        printf("vec: st(0) changed\n");
        bad++;
    }
    if (memcmp(in + V_MXCSR, out + V_MXCSR, 4) != 0) {
        printf("vec: MXCSR changed\n");
        bad++;
    }
    if (memcmp(in + V_FCW, out + V_FCW, 2) != 0) {
        printf("vec: the x87 control word changed\n");
        bad++;
    }
    if (memcmp(in + V_GP, out + V_GP, 64) != 0) {
        printf("vec: a general register changed\n");
        bad++;
    }
    {
        uint64_t fl;

        memcpy(&fl, out + V_FLAGS, 8);
        if (!(fl & 0x400)) {
            printf("vec: the direction flag changed\n");
            bad++;
        }
    }
    {
        uint64_t hits;

        memcpy(&hits, out + V_HITS, 8);
        if (hits != (uint64_t)n) {
            printf("vec: %llu hits counted, not %ld\n",
                   (unsigned long long)hits, n);
            bad++;
        }
    }
    if (fault)
        *(volatile int *)(uintptr_t)(n & 0) = 1; /* SIGSEGV, after the hits */
    if (bad != 0)
        return 1;
    printf("vec %ld hits, registers kept (%s, st0, MXCSR, FCW, DF)\n", n, what);
    return 0;
}
