/* crt0.S -- the freestanding start-up of the C test programs (no libc, no symbol).
**
** Storage (cprog.ld): low core (section .lowcore, loaded at absolute 0) and the program
** (.start, .text, .data, loaded at 0x20000). Hercules 3.13 IPLs the .ins list in ESA/390
** mode (with ARCHMODE ESA/390, and with ARCHMODE z/Arch too, as a real z machine does)
** and loads the IPL PSW at 0: ESA/390, disabled, 31-bit addressing, instruction address
** the start-up below.
**
** The start-up has no global symbol, so `nm` lists only the C program's own functions
** and the profile counts the start-up "outside" (DESIGN 3.7):
**   -m64 (__s390x__): SIGP set architecture (order X'12', parameter 1 in R1) switches the
**        CPU to z/Architecture, as a real z loader does, and SAM64 enters 64-bit
**        addressing (Hercules' ARCHMODE must be z/Arch: fst-capture --arch=z/Arch);
**   both: R13 = base; R15 = the top of the stack less the register save area the ABI
**        gives a callee (96 bytes for -m31, 160 for -m64), back chain 0; BRASL 14,main
**        enters the mainline (no call); main's return lands on the load of a disabled-wait
**        PSW at address 0 (LPSW 000A0000 00000000; z/Architecture: LPSWE 00020001 80000000
**        0...0).
** Instructions outside main: -m31 5 (BASR, L, XC, BRASL before; LPSW after);
**   -m64 8 (LHI, SIGP, SAM64, BASR, LLGF, XC, BRASL before; LPSWE after).
** Every new PSW of both architectures (ESA/390 at X'58'..X'78', z/Architecture at
** X'1A0'..X'1F0') is a disabled wait at X'BADnnn' (nnn its slot): an unexpected
** interruption stops the machine at once instead of looping.
*/
#define STACKTOP 0x80000            /* the stack grows down from here (below: free storage) */

        .section .lowcore,"a"
        .long   0x00080000, 0x80000000 + .Lstart   /* 000 IPL PSW: ESA/390, disabled, 31-bit */
        .fill   0x58 - 8, 1, 0
        .long   0x000A0000, 0x00BAD058             /* 058 external new PSW */
        .long   0x000A0000, 0x00BAD060             /* 060 SVC new PSW */
        .long   0x000A0000, 0x00BAD068             /* 068 program new PSW */
        .long   0x000A0000, 0x00BAD070             /* 070 machine-check new PSW */
        .long   0x000A0000, 0x00BAD078             /* 078 I/O new PSW */
        .fill   0x1A0 - 0x80, 1, 0
        .irp    slot, 1A0, 1B0, 1C0, 1D0, 1E0, 1F0 /* z/Arch restart, external, SVC, program, */
        .long   0x00020001, 0x80000000, 0, 0xBAD\slot /* machine-check and I/O new PSWs */
        .endr

        .section .start,"ax"
.Lstart:
#ifdef __s390x__
        lhi     %r1,1                   /* SIGP parameter: 1 = z/Architecture */
        sigp    %r0,%r1,0x12            /* set architecture (R3 = R1: the CPU address is ignored) */
        sam64
#endif
        basr    %r13,0                  /* base of the start-up */
.Lb:
#ifdef __s390x__
        llgf    %r15,.Lstack-.Lb(%r13)  /* stack pointer: top - save area */
#else
        l       %r15,.Lstack-.Lb(%r13)  /* stack pointer: top - save area */
#endif
        xc      0(8,%r15),0(%r15)       /* back chain 0 */
        brasl   %r14,main               /* the mainline */
#ifdef __s390x__
        lpswe   .Lwaitz-.Lb(%r13)       /* end: disabled wait */
#else
        lpsw    .Lwait-.Lb(%r13)        /* end: disabled wait */
#endif
        .balign 8
#ifdef __s390x__
.Lwaitz: .long  0x00020001, 0x80000000, 0, 0
.Lstack: .long  STACKTOP - 160
#else
.Lwait: .long   0x000A0000, 0x00000000
.Lstack: .long  STACKTOP - 96
#endif

        .section .note.GNU-stack,"",@progbits
