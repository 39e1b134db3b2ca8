// Sitting down as a guest: a name is enough; the server sets the session cookie.
const form = document.getElementById("guest-form");
if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const nickname = document.getElementById("nickname").value.trim();
    const response = await fetch("/api/account/guest", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({nickname})});
    if (response.ok) location.reload();
    else alert((await response.json()).detail);
  });
}
