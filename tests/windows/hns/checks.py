"""Named checks for the Wine test scripts: each prints ok/FAIL as it goes,
and the script's exit status says whether any failed."""

_failures = []


def check(condition, what):
    print(('ok    ' if condition else 'FAIL  ') + what, flush=True)
    if not condition:
        _failures.append(what)


def exit_status():
    if _failures:
        print(f'{len(_failures)} check(s) failed')
        return 1
    return 0
