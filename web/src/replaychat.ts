// A replay's chat (docs/social.md): what the game's players said in its room, from its lobby to
// its end screen, shown only to an account that was seated in the game (the server sends it to
// no one else: `chat` is null). Each line at its time in the game, quick phrases in the reader's
// language.

import { h } from "./dom";
import { t } from "./i18n";
import type { GameReplay, ReplayChatLine } from "./protocol";
import { clock } from "./ui";

/** The chat's panel, or `null` when the replay has none for this reader. */
export function replayChat(replay: GameReplay): HTMLElement | null {
  if (replay.chat === null) return null;
  const lines = replay.chat.map((line) => lineItem(replay, line));
  return h(
    "section.panel.replay-chat",
    { "aria-labelledby": "replay-chat-title" },
    h("h2#replay-chat-title", {}, t("replay:chat")),
    h("p.muted", {}, t("replay:chatPrivate")),
    lines.length ? h("ol.chat-lines", {}, ...lines) : h("p.muted", {}, t("replay:chatNone")),
  );
}

function lineItem(replay: GameReplay, line: ReplayChatLine): HTMLElement {
  const name = replay.players.find((p) => p.seat === line.seat)?.name ?? "?";
  const words = line.phrase ? t(`social:phrase.${line.phrase}`) : (line.text ?? "");
  const when = line.at < 0 ? t("replay:chatLobby") : clock(line.at);
  return h(
    "li.chat-line",
    { "data-seat": line.seat },
    h("span.muted.chat-time", {}, `${when} `),
    h("b", {}, `${name}: `),
    words,
  );
}
