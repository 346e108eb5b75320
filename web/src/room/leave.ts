// Leaving a running game by the Home button: a player is asked first.

import { h } from "../dom";
import { t } from "../i18n";
import type { Room } from "../protocol";
import type { RoomContext } from "./context";

/** Home from a running game: a player is asked first (the game goes on without them; from
 * home they can come back to it). A spectator, or a game over, leaves at once. */
export function askBeforeLeaving(e: MouseEvent, room: Room, ctx: RoomContext): void {
  if (room.phase !== "playing" || ctx.store.seat === null || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  e.stopPropagation();
  const back = e.currentTarget as HTMLElement;
  const close = () => {
    dialog.remove();
    document.removeEventListener("keydown", onKey, true);
    back.focus();
  };
  const onKey = (k: KeyboardEvent) => {
    if (k.key === "Escape") {
      k.stopPropagation();
      close();
    }
  };
  const stay = h("button.primary#stay-in-game", { type: "button", onclick: close }, t("play:leave.stay"));
  const leave = h(
    "button#leave-game",
    {
      type: "button",
      onclick: () => {
        close();
        ctx.go("/");
      },
    },
    t("play:leave.leave"),
  );
  const solo = room.settings.mode === "solo";
  const dialog = h(
    "div.overlay.leave-dialog",
    { role: "dialog", "aria-modal": "true", "aria-labelledby": "leave-title" },
    h(
      "div.panel",
      {},
      h("h2#leave-title", {}, solo ? t("play:leave.titleRun") : t("play:leave.titleGame")),
      h("p", {}, solo ? t("play:leave.textRun") : t("play:leave.textGame")),
      h("div.row", {}, leave, stay),
    ),
  );
  document.addEventListener("keydown", onKey, true);
  document.body.append(dialog);
  stay.focus();
}
