#!/usr/bin/env bash
# check_revision.sh RFDSE SWEEP: --resume refuses a file computed by another git
# revision (one line, exit 2) unless --force-revision, which records the revision in the
# git_revisions attribute; the results are the same as a run never interrupted
# (issue 20 item 7, issue 19 item 13).
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
rev=$("$rfdse" --version | sed -n 's/.*(git \(.*\))$/\1/p')
py() { /usr/bin/python3 -c "$1" "${@:2}"; }
attr() { py "import sys,h5py; v=h5py.File(sys.argv[1],'r').attrs.get(sys.argv[2]); print(v.decode() if isinstance(v,bytes) else v)" "$1" "$2"; }
# Another build's partial file: half the units not done, its revision(s) replaced.
other_build() {
  cp "$tmp/ref.h5" "$1"
  py "import sys,h5py,numpy as np
f=h5py.File(sys.argv[1],'r+'); d=f['/progress/done']; a=d[...]; a[a.shape[0]//2:,:]=0; d[...]=a
for k in ('git_revision','git_revisions'):
    if k in f.attrs: del f.attrs[k]
f.attrs['git_revision']=np.bytes_(sys.argv[2])
if sys.argv[3]=='list': f.attrs['git_revisions']=np.bytes_(sys.argv[2])" "$1" "$2" "$3"
}
refused() { # NAME FILE ARGS...: resume must fail with one line naming the revisions
  local name=$1 f=$2; shift 2
  local err rc
  err=$("$rfdse" run "$sweep" -o "$f" --quiet --resume "$@" 2>&1 >/dev/null); rc=$?
  echo "$name: exit $rc: $err"
  [ "$rc" -eq 2 ] || { echo "FAIL: $name: exit $rc, expected 2"; fail=1; }
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: $name: not one line"; fail=1; }
  case "$err" in *"--force-revision"*"$rev"*|*"$rev"*"--force-revision"*) ;;
    *) echo "FAIL: $name: message lacks this revision or --force-revision"; fail=1;; esac
}

"$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet --chips 4 || { echo "FAIL: reference run"; exit 1; }
[ "$(attr "$tmp/ref.h5" git_revisions)" = "$rev" ] || { echo "FAIL: a new file's git_revisions is not '$rev'"; fail=1; }

other_build "$tmp/a.h5" 0123456789ab list
refused other_revision "$tmp/a.h5" --chips 4
"$rfdse" run "$sweep" -o "$tmp/a.h5" --quiet --resume --force-revision --chips 4 \
  || { echo "FAIL: --force-revision resume"; fail=1; }
got=$(attr "$tmp/a.h5" git_revisions)
[ "$got" = "0123456789ab,$rev" ] || { echo "FAIL: git_revisions '$got', expected '0123456789ab,$rev'"; fail=1; }
echo "forced: git_revisions = $got"
h5diff "$tmp/ref.h5" "$tmp/a.h5" /results /results >/dev/null 2>&1 || { echo "FAIL: results differ"; fail=1; }
# now this revision is one of the file's: a plain resume is fine, and records nothing new
"$rfdse" run "$sweep" -o "$tmp/a.h5" --quiet --resume --chips 4 || { echo "FAIL: resume by a listed revision"; fail=1; }
[ "$(attr "$tmp/a.h5" git_revisions)" = "$got" ] || { echo "FAIL: git_revisions changed"; fail=1; }

# a file from before git_revisions existed: its git_revision decides
other_build "$tmp/old.h5" 0123456789ab single
refused old_file "$tmp/old.h5" --chips 4
# a hostile revision string stays on one line
other_build "$tmp/evil.h5" $'bad\nrev\e[2J' list
refused hostile "$tmp/evil.h5" --chips 4
# --force-revision alone is a usage error
"$rfdse" run "$sweep" -o "$tmp/x.h5" --force-revision 2>/dev/null; [ $? -eq 2 ] \
  || { echo "FAIL: --force-revision without --resume"; fail=1; }
exit $fail
