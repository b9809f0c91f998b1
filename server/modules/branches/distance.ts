/** A point on the map: latitude and longitude in degrees (WGS84, as postcode data gives them). */
export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_MILES = 3958.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * The distance between two points as the crow flies, in miles to one decimal
 * place (the haversine formula): what "nearest branch" and "4.2 miles" mean.
 * Roads are longer; a merchant's delivery bands allow for that.
 */
export function milesBetween(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h)) * 10) / 10;
}
