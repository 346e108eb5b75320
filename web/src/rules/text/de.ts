// Die Regeln auf Deutsch, in eigenen Worten (Fakten aus den Regelheften in shared/seeds/). Der
// gleiche Aufbau wie en.ts; die Zahlen kommen aus dem Datensatz der Ausgabe.

import type { LatticeName } from "../../geometry";
import type { Facts, RulesText } from "./types";

const list = (items: string[]): string =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} und ${items[items.length - 1]}`;

const players = (f: Facts): string => `${f.players[0]} bis ${f.players[1]} Personen`;

const PIECES: Record<LatticeName, (n: number) => string> = {
  square: (n) =>
    `Alle haben denselben Satz aus ${n} flachen Legeteilen aus Quadraten, jedes an Buchstabe und Farbe zu erkennen.`,
  hexagon: (n) =>
    `Alle haben denselben Satz aus ${n} flachen Legeteilen aus Sechsecken, jedes an Nummer und Farbe zu erkennen.`,
  triangle: (n) =>
    `Alle haben denselben Satz aus ${n} flachen Legeteilen aus Dreiecken, jedes mit einer Nummer; auf der Karte steht die Nummer in der Farbe des Teils.`,
  cube: (n) => `Alle haben denselben Satz aus ${n} Teilen aus Würfeln, jedes in seiner eigenen Farbe.`,
};

export const de: RulesText = {
  name: "Deutsch",
  heading: (title) => `So spielt man ${title}`,
  intro: (f) =>
    `Ein Legewettrennen für ${players(f)} oder ein Solo gegen die Uhr. Niemand wartet, bis er dran ist: alle puzzeln gleichzeitig.`,
  sections: {
    goal: {
      title: "Das Ziel",
      body: (f) => [
        "In jeder Runde bekommst du eine Aufgabe: eine Fläche und die Teile, mit denen du sie füllst. Bedecke die Fläche genau: jedes Feld bedeckt, kein Teil ragt über den Rand, keine zwei Teile am selben Platz.",
        f.layers > 1
          ? `Hier wird die Fläche in ${f.layers} Ebenen gefüllt: Teile stehen auf der Fläche und aufeinander, und am Ende ist jedes Feld genau ${f.layers} Würfel hoch bedeckt, nichts ragt über den Rand oder über die oberste Ebene.`
          : "Wer zuerst fertig ist, ruft „Ubongo!“. Wer schnell ist, sammelt im Lauf des Spiels am meisten.",
      ],
    },
    pieces: {
      title: "Deine Teile",
      body: (f) => [
        PIECES[f.lattice](f.pieces),
        f.layers > 1
          ? "Du darfst ein Teil beliebig drehen: auf jede Seite legen, aufstellen, herumdrehen."
          : "Du darfst ein Teil drehen und umdrehen; manche Aufgabe braucht beides.",
        "Eine Aufgabe nennt nur einige deiner Teile; die anderen bleiben in dieser Runde liegen.",
      ],
    },
    round: {
      title: "Eine Runde",
      body: (f) => {
        const sides = f.perPlayerSide
          ? `Jede Person wählt ihre eigene Stufe (${list(f.sides)}), so können Anfänger und Profis fair gegeneinander spielen.`
          : `Vor dem Spiel wird gemeinsam die Seite gewählt, die alle spielen: ${list(f.sides)}.`;
        const task = {
          die: "Alle nehmen ein neues Tableau. Eine Person würfelt: das Symbol sagt, welche Reihe des Tableaus und damit welche Teile in dieser Runde gelten. Der Würfel wandert von Runde zu Runde weiter.",
          corner:
            "Alle nehmen eine neue Karte. Die Ecken der Karte sagen, welche Teile gelten: in der ersten Runde die Ecke oben links, dann oben rechts, unten links und unten rechts, ab der fünften Runde wieder in derselben Reihenfolge.",
          card: "Alle nehmen eine neue Karte. Eine Karte zeigt zwei Flächen und daneben die Teile, mit denen beide gefüllt werden; die Runde ist geschafft, wenn beide Flächen bedeckt sind.",
        }[f.keyKind];
        const clock = f.gems
          ? f.hourglassSeconds !== null
            ? `Dann wird die Sanduhr umgedreht: ${f.hourglassSeconds} Sekunden für die Aufgabe.`
            : "Dann wird die Sanduhr umgedreht."
          : "Es gibt keine Sanduhr: die Runde endet mit dem Countdown, den die erste fertige Person startet.";
        return [sides, task, clock];
      },
    },
    finish: {
      title: "Ubongo!",
      body: (f) =>
        f.gems
          ? [
              "Ist deine Fläche bedeckt, ruf „Ubongo!“ (hier: drück den Ubongo!-Knopf, dann wird das Tableau geprüft). Nur wer fertig ist, bevor die Sanduhr abläuft, gewinnt etwas.",
              "Die erste Person nimmt einen Saphir (3 Punkte) aus der Edelsteinleiste und zieht blind einen Edelstein aus dem Beutel; die zweite nimmt einen Bernstein (1 Punkt) und einen Edelstein aus dem Beutel; alle anderen, die rechtzeitig fertig werden, ziehen einen Edelstein aus dem Beutel.",
              "Läuft die Sanduhr ab, bevor jemand fertig ist, wird sie noch einmal umgedreht: eine zweite Chance. Schafft es auch dann niemand, endet die Runde ohne Edelsteine.",
            ]
          : [
              `Ist deine Fläche bedeckt, ruf „Ubongo!“ (hier: drück den Ubongo!-Knopf, dann wird die Karte geprüft). Damit beginnt für die anderen ein Countdown: ${list(
                f.countdown.map((c) => `${c.seconds} Sekunden bei ${c.side}`),
              )}.`,
              "Wer vor dem Ende des Countdowns fertig wird, behält seine Karte: jede behaltene Karte ist ein Punkt. Wer es nicht schafft, gibt seine Karte an die Person, die zuerst fertig war.",
            ],
    },
    end: {
      title: "Das Spielende",
      body: (f) =>
        f.gems
          ? [
              `Das Spiel dauert ${f.rounds} Runden; die Edelsteinleiste zählt sie herunter. Dann zählen alle ihre Edelsteine: Rubin 4 Punkte, Saphir 3, Smaragd 2, Bernstein 1. Die höchste Summe gewinnt.`,
              "Bei Gleichstand gibt es ein Stechen: die Gleichstehenden nehmen je eine Aufgabe, ohne Sanduhr, und wer zuerst fertig ist, gewinnt das Spiel.",
            ]
          : [
              `Das Spiel dauert ${f.rounds} Runden, bis der Kartenstapel aufgebraucht ist. Jede Karte, die du hast, ist ein Punkt; die meisten Punkte gewinnen.`,
              "Bei Gleichstand spielen die Gleichstehenden noch eine Runde.",
            ],
    },
    solo: {
      title: "Allein spielen",
      body: (f) => [
        `Löse so viele Aufgaben wie möglich in ${f.soloMinutes} Minuten, oder miss, wie lange du für ${f.soloTasks} Aufgaben brauchst (oder ${list(
          f.soloAmounts.filter((n) => n !== f.soloTasks).map(String),
        )}).`,
        "Du kommst nicht weiter? Leg die Aufgabe beiseite und nimm die nächste. Dein Ergebnis zeigt, wie viele du beiseitegelegt hast; schlag deinen eigenen Rekord.",
      ],
    },
    variants: {
      title: "Varianten",
      body: (f) =>
        f.variants.map((v) =>
          v.name === "only-first"
            ? "Für Profis: nur wer in einer Runde als Erstes fertig ist, bekommt die Karte; die Karten aller anderen gehen aus dem Spiel."
            : v.label,
        ),
    },
  },
  captions: {
    pieces: (f) => `Die ${f.pieces} Teile jeder Person`,
    task: (f) =>
      f.layers > 1
        ? `Eine Aufgabe: fülle diese Fläche ${f.layers} Ebenen hoch mit diesen Teilen`
        : "Eine Aufgabe: bedecke diese Fläche mit diesen Teilen",
    solved: "Gelöst: jedes Feld bedeckt, nichts ragt heraus",
  },
  loading: "Die Bilder werden gezeichnet…",
  failed: "Die Bilder konnten nicht geladen werden (ist der Server erreichbar?).",
  refused: "Die Bilder konnten nicht gezeichnet werden:",
  home: "Start",
  others: "Regeln der anderen Ausgaben",
  unknownEdition: (name) => `Es gibt keine Ausgabe „${name}“.`,
};
