# The docs' relative links lead somewhere: every `[text](target)` and `![alt](target)` of the tracked
# Markdown pages (README.md, BENCHMARKS.md, docs/*.md) that is not a URL names a file or directory that
# exists, and its `#anchor`, if any, is a heading of the page it names (GitHub's rule: lower case,
# punctuation dropped, spaces to hyphens, `-1`, `-2` for repeated headings). Links inside code blocks and
# code spans are text, not links. Prints each broken link as file:line and fails.
# usage: WP_REPO=DIR bash tests/system/static/doc-links.sh [PAGE…]   (default: every tracked *.md)
set -uo pipefail
cd "${WP_REPO:?}" || exit 1
if [ $# -gt 0 ]; then
    pages=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t pages < <(git ls-files '*.md')
else
    mapfile -t pages < <(find . -name '*.md' -not -path './.build/*' -not -path './.git/*' | sed 's|^\./||' | sort)
fi
[ ${#pages[@]} -gt 0 ] || { echo "no Markdown pages"; exit 1; }

perl -CSD -Mutf8 -e '
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

my %anchors;    # page path => { anchor => 1 }

# The lines of a page outside fenced code blocks: [line number, text].
sub prose {
    my ($path) = @_;
    open(my $in, "<:encoding(UTF-8)", $path) or return ();
    my (@lines, $fence);
    while (my $line = <$in>) {
        chomp $line;
        if ($line =~ /^\s*(```|~~~)/) {
            my $mark = $1;
            if (!defined $fence) { $fence = $mark } elsif ($mark eq $fence) { undef $fence }
            next;
        }
        push @lines, [$., $line] unless defined $fence;
    }
    return @lines;
}

sub anchors_of {
    my ($path) = @_;
    return $anchors{$path} if $anchors{$path};
    my (%set, %seen);
    for my $entry (prose($path)) {
        my $line = $entry->[1];
        $set{$1} = 1 while $line =~ /<a\s+(?:name|id)="([^"]+)"/g;
        next unless $line =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
        my $slug = lc $1;
        $slug =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;    # a link in a heading keeps its text
        $slug =~ s/[^\p{L}\p{N}\p{M} _-]//g;
        $slug =~ s/ /-/g;
        my $n = $seen{$slug}++;
        $set{$n ? "$slug-$n" : $slug} = 1;
    }
    return $anchors{$path} = \%set;
}

my $broken = 0;
my $checked = 0;
for my $page (@ARGV) {
    for my $entry (prose($page)) {
        my ($number, $text) = @$entry;
        $text =~ s/(`+)(.+?)\1/" " x length($2)/ge;    # a code span is text, not a link
        while ($text =~ /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g) {
            my $target = $1;
            next if $target =~ /^[A-Za-z][A-Za-z0-9+.-]*:/;    # https:, mailto:, …
            $checked++;
            my ($file, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
            my $path = $file eq "" ? $page : File::Spec->canonpath(dirname($page) . "/" . $file);
            my $problem;
            if (!-e $path) {
                $problem = "no file $path";
            } elsif (defined $anchor && $anchor ne "") {
                if ($path !~ /\.md$/) {
                    $problem = "an anchor into $path, which is not a Markdown page";
                } elsif (!anchors_of($path)->{$anchor}) {
                    $problem = "no heading #$anchor in $path";
                }
            }
            next unless $problem;
            print "$page:$number: ($target): $problem\n";
            $broken++;
        }
    }
}
if ($broken) {
    print "$broken broken relative link(s) of $checked\n";
    exit 1;
}
print "$checked relative links, each to an existing file and heading\n";
' "${pages[@]}"
