// The canvas textures of the 3D scene: the pieces' labels and the stripes that mark a fault.

import * as THREE from "three";

/** A label: the text in a white rounded box edged in the piece's colour. */
export function labelTexture(text: string, colour: string): THREE.CanvasTexture {
  const canvas = document.createElement("canvas");
  canvas.width = 128;
  canvas.height = 72;
  const g = context2d(canvas);
  g.fillStyle = "rgba(255,255,255,0.92)";
  g.strokeStyle = colour;
  g.lineWidth = 8;
  g.beginPath();
  g.roundRect(6, 6, 116, 60, 16);
  g.fill();
  g.stroke();
  g.fillStyle = "#1d2b36";
  g.font = "bold 40px system-ui, sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, 64, 38);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/** Diagonal stripes in a colour on white: the fault mark, unlike any piece's plain colour. */
export function stripes(colour: string): THREE.CanvasTexture {
  const canvas = document.createElement("canvas");
  canvas.width = 64;
  canvas.height = 64;
  const g = context2d(canvas);
  g.fillStyle = "rgba(255,255,255,0.55)";
  g.fillRect(0, 0, 64, 64);
  g.strokeStyle = colour;
  g.lineWidth = 9;
  for (let i = -64; i <= 128; i += 21) {
    g.beginPath();
    g.moveTo(i, 0);
    g.lineTo(i + 64, 64);
    g.stroke();
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/** A canvas's 2D context (for the label and stripe textures); every browser with WebGL has one. */
function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const g = canvas.getContext("2d");
  if (!g) throw new Error("this browser has no 2D canvas");
  return g;
}
