// Illuminati's web module: the table and its manual section.
export { IlluminatiTable as Renderer } from "./table.js";
export { manual } from "./manual.js";
