#!/usr/bin/perl
# tests/decode/instances.pl TABLE BIN — for gen-binutils.sh: two instances of every
# mnemonic of binutils' opcode table (opcodes.c's output) into BIN, and one line per
# instance on stdout: hex, instance, every name of the opcode, the relative operands.
# The opcode of an entry is where the POO puts it: the first byte, and for these first
# bytes the second byte (01 B2 B3 B9 E5), its low nibble (A5 A7 C0 C2 C4 C6 C8 CC) or the
# sixth byte (E3 E6 E7 EB EC ED). binutils' z16 level is its cpu 12 (arch14).
use strict; use warnings; no warnings 'portable';
my ($table, $bin) = @ARGV;
my %b2 = map { $_ => 1 } qw(01 b2 b3 b9 e5);
my %nib = map { $_ => 1 } qw(a5 a7 c0 c2 c4 c6 c8 cc);
my %b6 = map { $_ => 1 } qw(e3 e6 e7 eb ec ed);
sub key { my $op = shift; my $f = substr($op, 0, 2);
    uc($b2{$f} ? substr($op, 0, 4) : $nib{$f} ? $f . substr($op, 3, 1) : $b6{$f} ? $f . substr($op, 10, 2) : $f) }

my (@e, %names);
open my $T, '<', $table or die "$table: $!";
while (<$T>) {
    next if /^#/;
    my ($name, $op, $mask, $len, $cpu, $flags, $colon, @opnd) = split;
    next if $cpu > 12;
    push @e, [$name, $op, $mask, $len, \@opnd];
    $names{key($op)}{uc $name} = 1;
}

# Field values. a: every field non-zero (objdump then prints every operand); b: zeros,
# the other end of each range, negative displacements and relative offsets.
my %val = (
    a => { reg => [4, 8, 12, 13, 9, 5], pair => [4, 8, 12], vr => [17, 18, 19, 20, 21], index => 7, base => 11,
           vindex => 22, d12 => 291, d20 => -12345, l8 => 15, l4 => 5,
           rel => { 12 => 0x123, 16 => 0x40, 24 => 0x12345, 32 => 0x12345 },
           u => { 4 => 15, 8 => 0x5A, 12 => 0xABC, 16 => 0x1234, 32 => 0x12345678 },
           s => { 8 => -5, 16 => -1234, 32 => -123456 } },
    b => { reg => [12, 0, 4, 8, 13, 1], pair => [12, 0, 4], vr => [31, 0, 30, 16, 1], index => 0, base => 0,
           vindex => 29, d12 => 4095, d20 => -524288, l8 => 255, l4 => 15,
           rel => { 12 => -1, 16 => -2, 24 => -3, 32 => -0x7FFFFFFF },
           u => { 4 => 8, 8 => 255, 12 => 0, 16 => 0xFFFF, 32 => 0xFFFFFFFF },
           s => { 8 => 127, 16 => 32767, 32 => 2147483647 } },
);

# value v into `bits` bits at bit `shift` of the 48-bit instruction
sub put { my ($insn, $v, $bits, $shift) = @_;
    my $m = (1 << $bits) - 1;
    $$insn = ($$insn & ~($m << (48 - $shift - $bits))) | (($v & $m) << (48 - $shift - $bits)); }
my %rxb = (8 => 36, 12 => 37, 16 => 38, 32 => 39);

open my $B, '>:raw', $bin or die "$bin: $!";
for my $x (@e) {
    my ($name, $op, $mask, $len, $opnd) = @$x;
    for my $tag ('a', 'b') {
        my $v = $val{$tag};
        my $insn = hex($op);
        my ($nreg, $npair, $nvr, $nrel) = (0, 0, 0, 0);
        for my $o (@$opnd) {
            my ($bits, $shift, $fl) = split m{/}, $o;
            $fl = hex $fl;
            my $f;
            if ($fl & 0x800) {       # vector register: the fifth bit goes to RXB
                $f = ($fl & 0x40) ? $v->{vindex} : $v->{vr}[$nvr++ % 5];
                put(\$insn, $f >> 4, 1, $rxb{$shift} // die "$name: VR at $shift");
            } elsif ($fl & 0x20) { $f = $v->{base} }
            elsif ($fl & 0x40) { $f = $v->{index} }
            elsif ($fl & 0x10) {     # displacement: 20 bits are stored DL, DH
                if ($bits == 20) { my $d = $v->{d20} & 0xFFFFF; $f = ($d & 0xFFF) << 8 | $d >> 12 }
                else { $f = $v->{d12} } }
            elsif ($fl & 0x200) { $f = $bits == 8 ? $v->{l8} : $v->{l4} }
            elsif ($fl & 0x80) { $f = $v->{rel}{$bits} // die "$name: relative $bits"; $nrel++ }
            elsif ($fl & 0xF) { $f = ($fl & 0x400) ? $v->{pair}[$npair++ % 3] : $v->{reg}[$nreg++ % 6] }
            elsif ($fl & 0x100) { $f = $v->{s}{$bits} // die "$name: signed $bits" }
            else { $f = $v->{u}{$bits} // ($tag eq 'a' ? 0x15 : 0xFF) & ((1 << $bits) - 1) }
            put(\$insn, $f, $bits, $shift);
        }
        my $hex = substr(sprintf("%012X", $insn), 0, 2 * $len);
        print $B pack("H*", $hex);
        printf "%s\t%s\t%s\t%s\t%d\n", $hex, $tag, $name, join(",", sort keys %{$names{key($op)}}), $nrel;
    }
}
close $B;
