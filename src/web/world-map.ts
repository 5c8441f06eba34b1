import { MapChart } from 'echarts/charts';
import { registerMap, use } from 'echarts/core';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-50m.json';
import { ALPHA2_BY_NUMBER } from './country-numbers.js';

/** The name the map is registered under, for a `map` series. */
export const WORLD = 'world';

// Antarctica would take a fifth of the drawing and holds no customers.
const LEFT_OUT = new Set(['010']);

type Ring = GeoJSON.Position[];

/**
 * A ring that crosses the antimeridian (Russia's far east, Fiji) as a plane draws it: across
 * the whole map. Its western points are moved past 180° east, so it is drawn in one piece.
 */
function unwrap(ring: Ring): Ring {
  const crosses = ring.some((point, i) => i > 0 && Math.abs(point[0]! - ring[i - 1]![0]!) > 180);
  return crosses ? ring.map(([lon, lat]) => [lon! < 0 ? lon! + 360 : lon!, lat!]) : ring;
}

function drawable(geometry: GeoJSON.Geometry): GeoJSON.Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrap) };
  if (geometry.type === 'MultiPolygon')
    return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrap)) };
  return geometry;
}

/**
 * Registers the world (Natural Earth's 1:50m countries, from world-atlas) with ECharts, each
 * country named by its alpha-2 code as the API names it, and the map series. Only the
 * Countries page imports this module, so Vite puts it and the geometry in a chunk of their own.
 * At 1:50m even Singapore, Malta or Bahrain are drawn, which 1:110m leaves out.
 */
function registerWorld(): string {
  use([MapChart]);
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const countries = feature(topology, topology.objects.countries);
  registerMap(WORLD, {
    type: 'FeatureCollection',
    features: countries.features
      .filter((country) => !LEFT_OUT.has(String(country.id)))
      .map((country) => ({
        ...country,
        geometry: drawable(country.geometry),
        // Places with no ISO code (Kosovo, Somaliland) keep their own name: no figure names them.
        properties: { name: ALPHA2_BY_NUMBER.get(String(country.id)) ?? country.properties.name },
      })),
  } as unknown as Parameters<typeof registerMap>[1]);
  return WORLD;
}

let registered: string | undefined;

/** The registered map's name, registering it on the first call. */
export function worldMap(): string {
  registered ??= registerWorld();
  return registered;
}
