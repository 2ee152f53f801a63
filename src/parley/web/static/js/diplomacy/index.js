// Diplomacy's web module: the map board and its manual section.
export { DiplomacyBoard as Renderer } from "./board.js";
export { manual } from "./manual.js";
