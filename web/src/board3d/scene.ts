// The three.js scene of the 3D board: the board with the task's area and its two levels, the
// pieces as coloured cubes with their labels, the piece in hand above its landing place (the
// "ghost"), faults in red, and a camera that orbits within limits or looks straight down.
//
// Coordinates: a cube cell (x, y, z) (see shapes.ts) is drawn at world (x, z, y) + 0.5, so
// three.js's y axis is up, the rows of the area run towards the camera's start position, and
// a look from above shows the area as the 2D editions show theirs. The scene draws what it is
// given (`update`) and renders on demand; it owns no game state.

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { onThemeChange, shownTheme } from "../settings";
import type { Cube, Fault } from "./shapes";
import { labelTexture, stripes } from "./textures";

export interface DrawnPiece {
  id: string;
  label: string;
  colour: string;
  cells: Cube[];
  faults: Fault[];
}

export interface SceneModel {
  placed: DrawnPiece[];
  /** the piece in hand: drawn `lift` levels above `cells`, where it would land */
  held: (DrawnPiece & { lift: number }) | null;
  covered: boolean;
}

const BOARD = 0x27495f;
const AREA = 0xf6edd5;
const AREA_LINE = 0xb69f68;
const GOOD = 0x1f9e5a;
const BAD = "#c8102e";
const CUBE = 0.96;
/** The scene's background in the page's colours (styles/dark.css: .board3d-stage). */
const sceneBackground = (): number => (shownTheme() === "dark" ? 0x1a2730 : 0xdfe7ed);

const MIN_POLAR = 0.0001; // straight down is the top view
const MAX_POLAR = 1.25; // never below the board's edge
const START_POLAR = 0.58;
/** How far towards the view's edge the framed box reaches (1: to the edge). */
const FILL = 0.95;

export class Scene3D {
  readonly canvas: HTMLCanvasElement;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly piecesGroup = new THREE.Group();
  private readonly outline: THREE.Group;
  private readonly rails: THREE.MeshStandardMaterial;
  private readonly box = new THREE.BoxGeometry(CUBE, CUBE, CUBE);
  private readonly edges = new THREE.EdgesGeometry(this.box);
  private readonly faultBox = new THREE.BoxGeometry(1.02, 1.02, 1.02);
  private readonly shadowGeometry = new THREE.PlaneGeometry(0.94, 0.94).rotateX(-Math.PI / 2);
  private readonly shadowMaterial = new THREE.MeshBasicMaterial({
    color: 0x10202c,
    transparent: true,
    opacity: 0.5,
    depthWrite: false,
  });
  private readonly shadowBad = new THREE.MeshBasicMaterial({
    color: BAD,
    transparent: true,
    opacity: 0.55,
    depthWrite: false,
  });
  private readonly materials = new Map<string, THREE.Material>();
  private readonly labels = new Map<string, THREE.SpriteMaterial>();
  private readonly raycaster = new THREE.Raycaster();
  /** the top placed piece over each floor cell ("x,y"), from the last model drawn */
  private columns = new Map<string, { id: string; z: number }>();
  private readonly floor = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
  private readonly centre: THREE.Vector3;
  /** the corners of the box the camera keeps in view: the area, its levels and some headroom */
  private readonly frameCorners: THREE.Vector3[];
  private frame = 0;
  private readonly stopTheme: () => void;
  private topView = false;
  private saved: { position: THREE.Vector3; target: THREE.Vector3 } | null = null;

  constructor(
    private readonly container: HTMLElement,
    area: number[][],
    layers: number,
  ) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.canvas = this.renderer.domElement;
    this.canvas.className = "board3d-canvas";
    container.appendChild(this.canvas);
    this.scene.background = new THREE.Color(sceneBackground());
    // dark or light as the page (settings.ts): the scene paints its own background
    this.stopTheme = onThemeChange(() => {
      this.scene.background = new THREE.Color(sceneBackground());
      this.render();
    });

    const xs = area.map((c) => c[0]);
    const ys = area.map((c) => c[1]);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs) + 1, Math.min(...ys), Math.max(...ys) + 1];
    this.centre = new THREE.Vector3((minX + maxX) / 2, layers * 0.35, (minY + maxY) / 2);
    // the box the camera frames: the area's cells, its levels, and room above for a piece
    // held over the top level (a small margin round it, so the rails are not cut)
    const m = 0.25;
    this.frameCorners = [];
    for (const x of [minX - m, maxX + m])
      for (const z of [minY - m, maxY + m])
        for (const y of [0, layers]) this.frameCorners.push(new THREE.Vector3(x, y, z));

    this.camera = new THREE.PerspectiveCamera(38, 1, 0.1, 200);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enablePan = false;
    this.controls.minPolarAngle = MIN_POLAR;
    this.controls.maxPolarAngle = MAX_POLAR;
    this.controls.target.copy(this.centre);
    this.placeCamera(START_POLAR, 0, 10);
    this.frameArea();
    this.controls.addEventListener("change", () => this.render());

    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8090a0, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.7);
    sun.position.set(this.centre.x - 4, 12, this.centre.z + 7);
    sun.target.position.copy(this.centre);
    this.scene.add(sun, sun.target);

    // the board, the area's cells and grid lines
    const pad = 1.1;
    const plate = new THREE.Mesh(
      new THREE.BoxGeometry(maxX - minX + 2 * pad, 0.3, maxY - minY + 2 * pad),
      new THREE.MeshStandardMaterial({ color: BOARD, roughness: 0.9 }),
    );
    plate.position.set(this.centre.x, -0.151, this.centre.z);
    this.scene.add(plate);
    const cellGeometry = new THREE.PlaneGeometry(1, 1).rotateX(-Math.PI / 2);
    const cellMaterial = new THREE.MeshStandardMaterial({ color: AREA, roughness: 1 });
    const grid: number[] = [];
    for (const [x, y] of area) {
      const m = new THREE.Mesh(cellGeometry, cellMaterial);
      m.position.set(x + 0.5, 0.001, y + 0.5);
      this.scene.add(m);
      grid.push(x, 0.004, y, x + 1, 0.004, y, x, 0.004, y, x, 0.004, y + 1);
      grid.push(x + 1, 0.004, y, x + 1, 0.004, y + 1, x, 0.004, y + 1, x + 1, 0.004, y + 1);
    }
    const gridGeometry = new THREE.BufferGeometry();
    gridGeometry.setAttribute("position", new THREE.Float32BufferAttribute(grid, 3));
    this.scene.add(new THREE.LineSegments(gridGeometry, new THREE.LineBasicMaterial({ color: 0xd9cba6 })));

    // the area's outline as rails on the board, and faintly at the top of every level
    this.rails = new THREE.MeshStandardMaterial({ color: AREA_LINE, roughness: 0.6 });
    this.outline = new THREE.Group();
    const inside = new Set(area.map((c) => `${c[0]},${c[1]}`));
    const boundary: [number, number, number, number][] = [];
    for (const [x, y] of area) {
      if (!inside.has(`${x},${y - 1}`)) boundary.push([x, y, x + 1, y]);
      if (!inside.has(`${x},${y + 1}`)) boundary.push([x, y + 1, x + 1, y + 1]);
      if (!inside.has(`${x - 1},${y}`)) boundary.push([x, y, x, y + 1]);
      if (!inside.has(`${x + 1},${y}`)) boundary.push([x + 1, y, x + 1, y + 1]);
    }
    const rail = new THREE.BoxGeometry(1.08, 0.06, 0.08);
    for (const [x1, y1, x2, y2] of boundary) {
      const m = new THREE.Mesh(rail, this.rails);
      m.position.set((x1 + x2) / 2, 0.03, (y1 + y2) / 2);
      if (x1 === x2) m.rotation.y = Math.PI / 2;
      this.outline.add(m);
    }
    this.scene.add(this.outline);
    const levels: number[] = [];
    const corners = new Set<string>();
    for (const [x1, y1, x2, y2] of boundary) {
      for (let level = 1; level <= layers; level++) levels.push(x1, level, y1, x2, level, y2);
      corners.add(`${x1},${y1}`);
      corners.add(`${x2},${y2}`);
    }
    for (const k of corners) {
      const [x, y] = k.split(",").map(Number);
      levels.push(x, 0, y, x, layers, y);
    }
    const levelGeometry = new THREE.BufferGeometry();
    levelGeometry.setAttribute("position", new THREE.Float32BufferAttribute(levels, 3));
    const levelLines = new THREE.LineSegments(
      levelGeometry,
      new THREE.LineDashedMaterial({
        color: 0x5b7f96,
        dashSize: 0.18,
        gapSize: 0.12,
        transparent: true,
        opacity: 0.75,
      }),
    );
    levelLines.computeLineDistances();
    this.scene.add(levelLines);

    this.scene.add(this.piecesGroup);
    this.resize();
  }

  // --- camera -----------------------------------------------------------------------------

  private placeCamera(polar: number, azimuth: number, distance: number): void {
    const offset = new THREE.Vector3().setFromSphericalCoords(distance, polar, azimuth);
    this.camera.position.copy(this.controls.target).add(offset);
    this.camera.lookAt(this.controls.target);
    this.controls.update();
  }

  /**
   * Frame the area: aim the camera at the middle of the framed box as it is seen (not at its
   * middle in space: the levels above the area push the box's picture up) and move it along its
   * line of sight until the box's picture reaches FILL of the way to the view's edges, across
   * or up, whichever is tighter. The picture shrinks about as 1 / distance, so a few rounds of
   * rescaling converge.
   */
  frameArea(): void {
    const s = this.spherical();
    let distance = s.radius;
    const target = this.centre.clone();
    this.controls.minDistance = 0;
    this.controls.maxDistance = Number.POSITIVE_INFINITY;
    const halfTan = Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2));
    const right = new THREE.Vector3();
    const up = new THREE.Vector3();
    for (let i = 0; i < 8; i++) {
      this.controls.target.copy(target);
      this.placeCamera(s.phi, s.theta, distance);
      this.camera.updateMatrixWorld();
      let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
      for (const c of this.frameCorners) {
        const p = c.clone().project(this.camera);
        [x0, x1, y0, y1] = [Math.min(x0, p.x), Math.max(x1, p.x), Math.min(y0, p.y), Math.max(y1, p.y)];
      }
      const reach = Math.max((x1 - x0) / 2, (y1 - y0) / 2);
      if (!(reach > 0)) break;
      // move the aim to the picture's middle (in world units at the aim's distance)
      right.setFromMatrixColumn(this.camera.matrixWorld, 0);
      up.setFromMatrixColumn(this.camera.matrixWorld, 1);
      const halfH = distance * halfTan;
      target.addScaledVector(right, ((x0 + x1) / 2) * halfH * this.camera.aspect);
      target.addScaledVector(up, ((y0 + y1) / 2) * halfH);
      distance *= reach / FILL;
    }
    this.controls.target.copy(target);
    this.placeCamera(s.phi, s.theta, distance);
    // the player may zoom a little either way from there (Ctrl+wheel, a pinch)
    this.controls.minDistance = distance * 0.6;
    this.controls.maxDistance = distance * 1.6;
  }

  /** Let the pointer turn the camera, or not (while it drags a piece). */
  setOrbiting(on: boolean): void {
    this.controls.enabled = on;
  }

  private spherical(): THREE.Spherical {
    return new THREE.Spherical().setFromVector3(this.camera.position.clone().sub(this.controls.target));
  }

  /** Look straight down at the area (true) or back to where the camera was. */
  setTopView(on: boolean): void {
    if (on === this.topView) return;
    this.topView = on;
    const s = this.spherical();
    if (on) {
      this.saved = { position: this.camera.position.clone(), target: this.controls.target.clone() };
      // the azimuth is kept at a multiple of 90 degrees so the rows stay level on screen
      const az = Math.round(s.theta / (Math.PI / 2)) * (Math.PI / 2);
      this.placeCamera(MIN_POLAR, az, s.radius);
    } else {
      if (this.saved) {
        this.camera.position.copy(this.saved.position);
        this.controls.target.copy(this.saved.target);
      } else this.placeCamera(START_POLAR, s.theta, s.radius);
      this.controls.update();
    }
    this.frameArea();
    this.render();
  }

  isTopView(): boolean {
    return this.topView;
  }

  /** Go round the board by `steps` eighths of a turn (keyboard and buttons). */
  orbit(steps: number): void {
    const s = this.spherical();
    this.topView = false;
    this.placeCamera(s.phi < 0.05 ? START_POLAR : s.phi, s.theta + (steps * Math.PI) / 4, s.radius);
    this.frameArea();
    this.render();
  }

  /**
   * How many quarter turns the camera has gone round the board, clockwise seen from above
   * (0: it looks at the area from the front, where the rows end).
   */
  quadrant(): number {
    const theta = this.spherical().theta; // 0 at +z (the front), growing towards +x
    // going from the front towards +x (the right) is anticlockwise seen from above
    return ((-Math.round(theta / (Math.PI / 2)) % 4) + 4) % 4;
  }

  // --- drawing ----------------------------------------------------------------------------

  private material(colour: string, kind: "solid" | "ghost" | "edge" | "fault"): THREE.Material {
    const key = `${kind}:${colour}`;
    let m = this.materials.get(key);
    if (!m) {
      const c = new THREE.Color(colour);
      if (kind === "solid") m = new THREE.MeshStandardMaterial({ color: c, roughness: 0.55, metalness: 0.05 });
      else if (kind === "ghost")
        m = new THREE.MeshStandardMaterial({ color: c, transparent: true, opacity: 0.38, depthWrite: false });
      else if (kind === "fault")
        m = new THREE.MeshBasicMaterial({ map: stripes(colour), transparent: true, depthWrite: false });
      else m = new THREE.LineBasicMaterial({ color: c });
      this.materials.set(key, m);
    }
    return m;
  }

  private label(text: string, colour: string): THREE.Sprite {
    const key = `${text}:${colour}`;
    let m = this.labels.get(key);
    if (!m) {
      const texture = labelTexture(text, colour);
      m = new THREE.SpriteMaterial({ map: texture, depthTest: false });
      this.labels.set(key, m);
    }
    const s = new THREE.Sprite(m);
    s.scale.set(0.95, 0.53, 1);
    s.renderOrder = 10;
    return s;
  }

  private cubes(p: DrawnPiece, kind: "solid" | "ghost", lift = 0): THREE.Group {
    const g = new THREE.Group();
    g.userData.piece = p.id;
    const colour = p.colour;
    p.cells.forEach((c, i) => {
      const fault = p.faults[i];
      const at = new THREE.Vector3(c[0] + 0.5, c[2] + 0.5 + lift, c[1] + 0.5);
      const body = kind === "ghost" && fault ? this.material(BAD, "ghost") : this.material(colour, kind);
      const m = new THREE.Mesh(this.box, body);
      m.position.copy(at);
      m.userData.piece = p.id;
      g.add(m);
      const edgeColour = fault ? BAD : kind === "ghost" ? colour : "#1d2b36";
      const e = new THREE.LineSegments(this.edges, this.material(edgeColour, "edge"));
      e.position.copy(at);
      g.add(e);
      if (fault && kind === "solid") {
        const f = new THREE.Mesh(this.faultBox, this.material(BAD, "fault"));
        f.position.copy(at);
        g.add(f);
      }
    });
    return g;
  }

  /** A dark print under each bottom face of the piece where it would land: its shadow. */
  private shadow(p: DrawnPiece): THREE.Group {
    const g = new THREE.Group();
    g.userData.held = true;
    const mine = new Set(p.cells.map((c) => `${c[0]},${c[1]},${c[2]}`));
    p.cells.forEach((c, i) => {
      if (mine.has(`${c[0]},${c[1]},${c[2] - 1}`)) return;
      const m = new THREE.Mesh(this.shadowGeometry, p.faults[i] ? this.shadowBad : this.shadowMaterial);
      m.position.set(c[0] + 0.5, c[2] + 0.012, c[1] + 0.5);
      m.renderOrder = 2;
      g.add(m);
    });
    return g;
  }

  private labelAt(p: DrawnPiece, lift: number): THREE.Sprite {
    // above the piece's highest cube nearest its middle
    const top = Math.max(...p.cells.map((c) => c[2]));
    const mx = p.cells.reduce((s, c) => s + c[0], 0) / p.cells.length;
    const my = p.cells.reduce((s, c) => s + c[1], 0) / p.cells.length;
    const best = p.cells
      .filter((c) => c[2] === top)
      .sort((a, b) => (a[0] - mx) ** 2 + (a[1] - my) ** 2 - ((b[0] - mx) ** 2 + (b[1] - my) ** 2))[0];
    const s = this.label(p.label, p.colour);
    s.position.set(best[0] + 0.5, top + 1.3 + lift, best[1] + 0.5);
    return s;
  }

  update(model: SceneModel): void {
    for (const child of [...this.piecesGroup.children]) this.piecesGroup.remove(child);
    this.columns = new Map();
    for (const p of model.placed) {
      for (const [x, y, z] of p.cells) {
        const top = this.columns.get(`${x},${y}`);
        if (!top || top.z < z) this.columns.set(`${x},${y}`, { id: p.id, z });
      }
    }
    for (const p of model.placed) {
      this.piecesGroup.add(this.cubes(p, "solid"));
      this.piecesGroup.add(this.labelAt(p, 0));
    }
    if (model.held) {
      const h = model.held;
      const ghost = this.cubes(h, "ghost");
      ghost.userData.held = true;
      this.piecesGroup.add(ghost);
      this.piecesGroup.add(this.shadow(h));
      const inHand = this.cubes({ ...h, faults: h.cells.map(() => null) }, "solid", h.lift);
      inHand.userData.held = true;
      this.piecesGroup.add(inHand);
      this.piecesGroup.add(this.labelAt(h, h.lift));
    }
    this.rails.color.set(model.covered ? GOOD : AREA_LINE);
    this.render();
  }

  // --- pointer ------------------------------------------------------------------------------

  /**
   * The placed piece under a screen point, the board cell under it, and whether the point is on
   * the piece in hand (drawn over its landing place, or its ghost there).
   */
  pick(clientX: number, clientY: number): { piece: string | null; cell: [number, number] | null; held: boolean } {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    // pieces drawn since the last frame have no world matrices yet
    this.scene.updateMatrixWorld();
    let piece: string | null = null;
    let held = false;
    for (const hit of this.raycaster.intersectObjects(this.piecesGroup.children, true)) {
      // a cube or its fault mark; the piece's group knows which piece it is
      const group = hit.object.parent;
      if (!(hit.object instanceof THREE.Mesh) || !group?.userData.piece) continue;
      if (group.userData.held) held = true;
      else {
        piece = group.userData.piece as string;
        break;
      }
    }
    const p = new THREE.Vector3();
    const cell = this.raycaster.ray.intersectPlane(this.floor, p)
      ? ([Math.floor(p.x), Math.floor(p.z)] as [number, number])
      : null;
    // cubes are drawn a little smaller than a cell: a ray through the seam between two cubes
    // still meets the floor under the piece that stands there
    if (!piece && cell) piece = this.columns.get(`${cell[0]},${cell[1]}`)?.id ?? null;
    return { piece, cell, held };
  }

  // --- life cycle ---------------------------------------------------------------------------

  resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.frameArea();
    this.render();
  }

  /** Draw at the next animation frame (once, however often it is asked). */
  render(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderer.render(this.scene, this.camera);
    });
  }

  dispose(): void {
    this.stopTheme();
    cancelAnimationFrame(this.frame);
    this.controls.dispose();
    this.scene.traverse((o) => {
      if (o instanceof THREE.Mesh || o instanceof THREE.LineSegments) o.geometry.dispose();
    });
    for (const m of this.materials.values()) m.dispose();
    this.shadowMaterial.dispose();
    this.shadowBad.dispose();
    for (const m of this.labels.values()) {
      m.map?.dispose();
      m.dispose();
    }
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.canvas.remove();
  }
}
