#!/usr/bin/perl
# tests/decode/reassemble.pl META DIS ASM — for gen-binutils.sh: pair each instance
# (instances.pl's META) with objdump's line for it (DIS); write objdump's text as
# assembler input to ASM (relative operands as .+n), and the expected-data lines on
# stdout (gen-binutils.sh describes the columns).
use strict; use warnings; no warnings 'portable';
my ($meta, $dis, $asm) = @ARGV;
open my $M, '<', $meta or die "$meta: $!";
open my $D, '<', $dis or die "$dis: $!";
open my $A, '>', $asm or die "$asm: $!";
while (my $m = <$M>) {
    chomp $m;
    my ($hex, $tag, $name, $names, $nrel) = split /\t/, $m;
    my $d = <$D> // die "objdump printed fewer lines than instances (at $name)\n";
    chomp $d;
    my ($addr, $bytes, $mn, $ops) = $d =~ /^ +([0-9a-f]+):\t([0-9a-f ]+?) *\t(\S+)(?:\t(.*))?$/
        or die "objdump line: $d\n";
    $ops //= '';
    (my $b = uc $bytes) =~ s/ //g;
    die "$name ($tag): objdump read $b, the instance is $hex\n" if $b ne $hex;
    # objdump prints a relative operand as its absolute target: make it an offset
    my @rel;
    (my $text = $ops) =~ s/0x([0-9a-f]+)/
        my $o = do { use integer; hex($1) - hex($addr) }; push @rel, $o; ($o < 0 ? ".$o" : ".+$o")/ge;
    print $A "\t$mn\t$text\n";
    my $vals = '-';
    if ($tag eq 'a') {
        (my $n = $text) =~ s/%[rfvac](\d+)/$1/g;
        $n =~ s/\.([+-]\d+)/$1/g;
        $vals = join ',', ($n =~ /-?\d+/g);
        $vals = '-' if $vals eq '';
    }
    my $target = @rel == 1 ? $rel[0] : '-';
    print join("\t", $hex, $tag, $names, uc $mn, $vals, $target), "\n";
}
die "objdump printed more lines than instances\n" if defined <$D>;
