// The players' part of the dice: a seed each seated person adds once the server's
// commitment is public, and the checks anybody can make of them afterwards.

/** A new seed from the browser's cryptographic generator: 32 hex digits. */
export function newSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/** 1 to 64 printable ASCII characters without spaces, as the server takes them. */
export function isSeed(text) {
  return /^[!-~]{1,64}$/.test(text);
}

/** The client seed the dice use: `seat:length:seed` for each contribution, by seat. */
export function combinedClientSeed(contributions) {
  return [...contributions].sort((a, b) => a.seat - b.seat)
    .map((c) => `${c.seat}:${c.seed.length}:${c.seed}`).join(",");
}

export function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether a revealed server seed (hex) is the one whose SHA-256 was committed. */
export async function matchesCommitment(serverSeed, commitment) {
  const bytes = Uint8Array.from(serverSeed.match(/../g).map((b) => parseInt(b, 16)));
  return hex(await crypto.subtle.digest("SHA-256", bytes)) === commitment;
}
