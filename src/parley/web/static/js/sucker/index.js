// So Long Sucker's web module: the table and its manual section.
export { SuckerTable as Renderer } from "./table.js";
export { manual } from "./manual.js";
