#!/usr/bin/python3
"""check_submit_injection.py RFDSE SWEEP: nothing in a sweep file or on the command line of
`rfdse submit` can put a command of its own into the batch script.

Every string key of the sweep schema (found in `rfdse validate`'s fully resolved output,
plus technique and workload names) and every text option of `rfdse submit` gets each
payload below.  A value with a control character must be refused with one line and
exit 2, nothing written.  Any other value must give a script that `bash -n` accepts,
whose #SBATCH block is intact, and that, run with stand-ins for srun, mpirun, ompi_info
and scontrol on PATH, creates no marker file and hands the launcher the exact paths.
"""
import os
import re
import subprocess
import sys
import tempfile

RFDSE, SWEEP = sys.argv[1], sys.argv[2]
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL:", msg)


def payloads(marker):
    return [
        f"a\ntouch {marker} #",          # the reported injection
        f"a\rb", "a\tb", "a\x1bb",        # other control characters
        f"x$(touch {marker})",
        f"x`touch {marker}`",
        f'x"; touch {marker}; "',
        f"x'; touch {marker}; '",
        f"x;touch {marker}",
        "x\\", "x #c", "%j $HOME",
    ]


def cfg_string(s):
    """s as a libconfig string literal."""
    out = '"'
    for ch in s:
        if ch in '"\\':
            out += "\\" + ch
        elif ord(ch) < 0x20:
            out += "\\x%02x" % ord(ch)
        else:
            out += ch
    return out + '"'


def string_keys():
    """(section, key) of every string-valued key in the resolved default sweep."""
    text = subprocess.run([RFDSE, "validate"], capture_output=True, text=True).stdout
    keys, section = [("", "name")], None
    for line in text.splitlines():
        m = re.match(r"^(\w+) = \{", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^  (\w+) = \"", line)
        if m and section:
            keys.append((section, m.group(1)))
    return sorted(set(keys))


def sweep_text(section, key, value):
    lines = ['chips = { count = 2; seed = 3L; };',
             'techniques = ( "baseline" );', 'workloads = ( "nn" );']
    v = cfg_string(value)
    if section == "":
        lines.append(f"name = {v};")
    elif section == "techniques":
        lines[1] = f'techniques = ( {{ name = {v}; base = "baseline"; }} );'
    elif section == "workloads":
        lines[2] = f'workloads = ( {{ name = {v}; base = "nn"; }} );'
    else:
        lines.append(f"{section} = {{ {key} = {v}; }};")
    if section != "output":  # a plain results file, so only the key under test varies
        lines.append('output = { file = "plain.h5"; };')
    return "\n".join(lines) + "\n"


def stubs(d, log):
    os.makedirs(d, exist_ok=True)
    for name, body in {
        "srun": "exit 0",                      # lists no PMIx: the script picks mpirun
        "ompi_info": "exit 0",
        "scontrol": "exit 0",
        "mpirun": f'printf "%s\\0" "$@" > {log}; exit 0',
    }.items():
        with open(os.path.join(d, name), "w") as f:
            f.write("#!/bin/bash\n" + body + "\n")
        os.chmod(os.path.join(d, name), 0o755)


def check_script(label, script, tmp, marker, want_output):
    if subprocess.run(["bash", "-n"], input=script, text=True).returncode:
        fail(f"{label}: bash -n rejects the script")
    lines = script.splitlines()
    sb = [i for i, l in enumerate(lines) if l.startswith("#SBATCH")]
    if not sb or sb != list(range(sb[0], sb[0] + len(sb))):
        fail(f"{label}: the #SBATCH block is broken")
    if not any(l.startswith("#SBATCH --signal=") for l in lines):
        fail(f"{label}: --signal directive lost")
    path = os.path.join(tmp, "job.sbatch")
    with open(path, "w") as f:
        f.write(script)
    log = os.path.join(tmp, "launcher.args")
    stubs(os.path.join(tmp, "bin"), log)
    env = dict(os.environ, PATH=os.path.join(tmp, "bin") + ":" + os.environ["PATH"],
               SLURM_NTASKS="1", SLURM_JOB_ID="1")
    subprocess.run(["bash", path], cwd=tmp, env=env, capture_output=True, timeout=60)
    if os.path.exists(marker):
        fail(f"{label}: the payload ran (marker created)")
        os.unlink(marker)
    try:
        args = open(log).read().split("\0")[:-1]
    except OSError:
        fail(f"{label}: the launcher was never started")
        return
    if want_output and (want_output not in args or args[args.index(want_output) - 1] != "-o"):
        fail(f"{label}: launcher did not get -o {want_output!r}: {args!r}")
    os.unlink(log)


def one(label, args, sweep_body, tmp, marker, value, want_output):
    sweep = os.path.join(tmp, "s.cfg")
    with open(sweep, "w") as f:
        f.write(sweep_body)
    r = subprocess.run([RFDSE, "submit", sweep, "--dry-run"] + args, cwd=tmp,
                       capture_output=True, text=True)
    control = re.search(r"[\x00-\x1f\x7f]", value) is not None
    if r.returncode == 2:
        if len(r.stderr.splitlines()) != 1:
            fail(f"{label}: refusal is not one line: {r.stderr!r}")
        return "refused"
    if control:
        fail(f"{label}: a control character was accepted (status {r.returncode})")
    if r.returncode != 0:
        fail(f"{label}: status {r.returncode}: {r.stderr.strip()}")
        return "error"
    check_script(label, r.stdout, tmp, marker, want_output)
    return "accepted"


def main():
    counts = {"refused": 0, "accepted": 0, "error": 0}
    keys = string_keys() + [("techniques", "name"), ("workloads", "name")]
    with tempfile.TemporaryDirectory() as tmp:
        # Relative (the script runs in tmp) and short, so payloads fit DSE_NAME_MAX.
        marker = os.path.join(tmp, "PW")
        for section, key in keys:
            for value in payloads("PW"):
                out = os.path.join(tmp, value) if (section, key) == ("output", "file") else None
                label = f"{section or '(top)'}.{key}={value!r}"
                counts[one(label, [], sweep_text(section, key, value), tmp, marker, value,
                           out)] += 1
        base = sweep_text("", "name", "plain")
        for opt in ["--job-name", "--partition", "--account", "--output-dir", "-o",
                    "--sbatch-line", "--techniques", "--workloads"]:
            for value in payloads("PW"):
                v = ("--comment=" + value) if opt == "--sbatch-line" else value
                out = os.path.join(tmp, v) if opt == "-o" else None
                counts[one(f"{opt} {v!r}", [opt, v], base, tmp, marker, value, out)] += 1
    print(f"{len(keys)} string keys and 8 options x {len(payloads('M'))} payloads: "
          f"{counts['refused']} refused, {counts['accepted']} accepted and run safely")
    print(f"{len(FAILS) == 0 and 'all passed' or str(len(FAILS)) + ' failures'}")
    return 1 if FAILS else 0


sys.exit(main())
