"""deploy/: the systemd units are what systemd reads without a complaint."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
INSTALLED = "/opt/kastkopp/.venv/bin/"  # where docs/deploy.md installs kastkopp


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (it comes with systemd)")
    # systemd checks that each command exists: point them at this checkout's interpreter
    here = str(Path(sys.executable).parent) + "/"
    names = []
    for unit in sorted((DEPLOY / "systemd").glob("kastkopp*")):
        if unit.suffix in (".service", ".target"):
            text = unit.read_text()
            assert INSTALLED in text or unit.suffix == ".target", unit.name
            (tmp_path / unit.name).write_text(text.replace(INSTALLED, here))
            names.append(unit.name.replace("@.", "@8001."))
    assert {"kastkopp-migrate.service", "kastkopp@8001.service", "kastkopp.target"} <= \
        set(names)
    result = subprocess.run([analyze, "verify", "--man=no", *names], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # unknown keys, bad values and missing units are only warned about: none may be
    assert result.stdout + result.stderr == ""


def test_the_server_units_start_after_the_migrations_and_stop_gracefully() -> None:
    server = (DEPLOY / "systemd" / "kastkopp@.service").read_text()
    assert "Requires=kastkopp-migrate.service" in server
    assert "After=kastkopp-migrate.service" in server
    assert "KillSignal=SIGTERM" in server and "--port %i" in server
    migrate = (DEPLOY / "systemd" / "kastkopp-migrate.service").read_text()
    assert "Type=oneshot" in migrate and "-m kastkopp.store upgrade" in migrate
