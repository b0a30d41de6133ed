/* x86-64 stubs of the drawing libraries' functions (see loader.c and symbols.h).
 *
 * Each stub has the function's name, hidden (never exported, never seen by the libraries) and
 * jumps through its slot, so the call goes on with the caller's arguments and return address
 * untouched. While the slot is empty it jumps to ouds_lazy_slow with the slot's address in r11
 * (a scratch register no argument uses). */

#if defined(__x86_64__) && defined(__linux__)

#define OUDS_LIBRARY(id, soname, package)
#define OUDS_SYMBOL(library, name)                  \
  .globl name;                                      \
  .hidden name;                                     \
  .type name, @function;                            \
  .p2align 4;                                       \
  name:                                             \
  movq ouds_slot_##name(%rip), %r11;                \
  testq %r11, %r11;                                 \
  jz 1f;                                            \
  jmp *%r11;                                        \
  1:                                                \
  leaq ouds_slot_##name(%rip), %r11;                \
  jmp ouds_lazy_slow;                               \
  .size name, .-name;

  .text
#include "symbols.h"

/* Saves every register that may carry an argument (rdi, rsi, rdx, rcx, r8, r9, xmm0-xmm7, and
 * rax: the number of vector registers of a variadic call), asks ouds_lazy_resolve for the
 * function of the slot in r11, restores them and jumps to it. On entry the stack is as the
 * caller left it for the function (rsp = 8 mod 16); after the push and 192 bytes it is 16-byte
 * aligned for the call. */
  .globl ouds_lazy_slow
  .hidden ouds_lazy_slow
  .type ouds_lazy_slow, @function
  .p2align 4
ouds_lazy_slow:
  pushq %rbp
  movq %rsp, %rbp
  subq $192, %rsp
  movq %rdi, 0(%rsp)
  movq %rsi, 8(%rsp)
  movq %rdx, 16(%rsp)
  movq %rcx, 24(%rsp)
  movq %r8, 32(%rsp)
  movq %r9, 40(%rsp)
  movq %rax, 48(%rsp)
  movaps %xmm0, 64(%rsp)
  movaps %xmm1, 80(%rsp)
  movaps %xmm2, 96(%rsp)
  movaps %xmm3, 112(%rsp)
  movaps %xmm4, 128(%rsp)
  movaps %xmm5, 144(%rsp)
  movaps %xmm6, 160(%rsp)
  movaps %xmm7, 176(%rsp)
  movq %r11, %rdi
  call ouds_lazy_resolve
  movq %rax, %r11
  movq 0(%rsp), %rdi
  movq 8(%rsp), %rsi
  movq 16(%rsp), %rdx
  movq 24(%rsp), %rcx
  movq 32(%rsp), %r8
  movq 40(%rsp), %r9
  movq 48(%rsp), %rax
  movaps 64(%rsp), %xmm0
  movaps 80(%rsp), %xmm1
  movaps 96(%rsp), %xmm2
  movaps 112(%rsp), %xmm3
  movaps 128(%rsp), %xmm4
  movaps 144(%rsp), %xmm5
  movaps 160(%rsp), %xmm6
  movaps 176(%rsp), %xmm7
  leave
  jmp *%r11
  .size ouds_lazy_slow, .-ouds_lazy_slow

  .section .note.GNU-stack, "", @progbits

#endif
