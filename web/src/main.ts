import "./style.css";
import { Board } from "./board";
import { loadCatalogue } from "./catalogue";

const app = document.getElementById("app")!;
loadCatalogue("classic").then((cat) => {
  const b = new Board({ catalogue: cat, area: [[0,0],[1,0],[2,0],[0,1],[1,1],[2,1]], pieces: ["B", "C", "A"] });
  app.appendChild(b.element);
  b.attach();
});
